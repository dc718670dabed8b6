// The simulator as a library: the server's demo fleet and the benchmarks start routers with these.
export { type BehaviourRates, DEFAULT_BEHAVIOUR, QUIET_BEHAVIOUR } from "./behaviour";
export { ROUTER_MODELS } from "./catalog";
export { createRouterState, type RouterClaim, type RouterState } from "./device";
export { Fleet, type FleetKeys, type FleetOptions, type FleetStats, fleetIdent } from "./fleet";
export { InflightLimit } from "./inflight";
export { DEFAULT_FLEET_SECRET, type DeviceKeyEntry, deriveFleetKey, parseKeysFile } from "./keys";
export { Random } from "./random";
export {
  type RouterStats,
  SIMULATOR_AGENT_VERSION,
  VirtualRouter,
  type VirtualRouterOptions,
} from "./router";
export { routerBackup, routerJournal } from "./router-files";
export { csqFromRssi, driftRadio, SIGNAL_BOUNDS, signalPercent } from "./signal";
export { type TransferOptions, type TransferOutcome, transferFile } from "./transfer";
export { createWebUi, WEB_UI_PASSWORD } from "./web-ui";
