import type { NetworkMode } from "@cellfleet/contract";
import {
  luhnCheckDigit,
  OPERATORS,
  type Operator,
  ROUTER_MODELS,
  type RouterModel,
  TUNNEL_TEMPLATES,
} from "./catalog";
import type { Random } from "./random";
import { createRadio, type Radio } from "./signal";

/** A SIM card in a slot. */
export interface SimCard {
  operator: Operator;
  iccid: string;
  imsi: string;
}

/** One cellular modem of a simulated router. */
export interface ModemState {
  id: string;
  module: string;
  imei: string;
  primary: boolean;
  /** Best mode the module can do; `mode` falls back to 3G where the signal is poor. */
  nativeMode: NetworkMode;
  mode: NetworkMode;
  /** SIM slots, index 0 is slot 1; null is an empty slot. */
  sims: Array<SimCard | null>;
  activeSim: number;
  online: boolean;
  ip: string | null;
  band: string | null;
  rx: number;
  tx: number;
  /** When the data connection came up (ms), null while offline. */
  connectedAt: number | null;
  radio: Radio;
  /** Registered on a visited network; the simulator's routers stay home unless a test moves them. */
  roaming: boolean;
  /** Whether an `interface_degraded` event is outstanding for this modem. */
  degraded: boolean;
}

/** One configured tunnel. */
export interface TunnelState {
  name: string;
  kind: (typeof TUNNEL_TEMPLATES)[number]["kind"];
  remote: string;
  /** Address inside the tunnel, while it is up. */
  local: string;
  up: boolean;
  running: boolean;
  rx: number;
  tx: number;
}

/** One physical Ethernet port. */
export interface PortState {
  name: string;
  up: boolean;
  speed: number;
}

/** Everything a simulated router knows about itself. */
export interface RouterState {
  ident: string;
  /** Where its GNSS receiver puts it: near one of a few cities, metres apart (collect/gps). */
  site: { lat: number; lng: number };
  model: RouterModel;
  firmware: string;
  serial: string;
  hostname: string;
  /** When the router last booted (ms). */
  bootedAt: number;
  cpuLoad: number;
  memoryFree: number;
  temperature: number | null;
  lanMac: string;
  lanRx: number;
  lanTx: number;
  modems: ModemState[];
  tunnels: TunnelState[];
  ports: PortState[];
  gpio: Record<string, 0 | 1>;
}

/** A SIM card of a random operator. */
export function createSim(random: Random): SimCard {
  const operator = random.pick(OPERATORS);
  const iccidBody = `${operator.iccidPrefix}${random.digits(11)}`;
  return {
    operator,
    iccid: `${iccidBody}${luhnCheckDigit(iccidBody)}`,
    imsi: `${operator.mccMnc}${random.digits(10)}`,
  };
}

/** A carrier-grade NAT address of a /30 whose gateway is the address just below it. */
export function createModemIp(random: Random): string {
  return `10.${random.int(64, 191)}.${random.int(0, 255)}.${random.int(0, 63) * 4 + 2}`;
}

/** The gateway of a modem address made by {@link createModemIp}. */
export function modemGateway(ip: string): string {
  const parts = ip.split(".");
  return `${parts[0]}.${parts[1]}.${parts[2]}.${Number(parts[3]) - 1}`;
}

/** The name the router's OS gives a modem's WAN interface. */
export function modemInterfaceName(model: RouterModel, modemIndex: number, sim: number): string {
  if (model.vendor === "Teltonika") return `mob${modemIndex + 1}s${sim}a1`;
  if (model.vendor === "MikroTik") return `lte${modemIndex + 1}`;
  return `wwan${modemIndex + 1}`;
}

function createModem(model: RouterModel, index: number, random: Random, now: number): ModemState {
  const sims = Array.from({ length: model.simSlots }, (_, slot) =>
    slot === 0 || random.chance(0.7) ? createSim(random) : null,
  );
  const imeiBody = `${model.module.tac}${random.digits(6)}`;
  const sim = sims[0] as SimCard;
  return {
    id: model.vendor === "MikroTik" ? `lte${index + 1}` : `${index + 1}-1`,
    module: model.module.name,
    imei: `${imeiBody}${luhnCheckDigit(imeiBody)}`,
    primary: index === 0,
    nativeMode: model.module.mode,
    mode: model.module.mode,
    sims,
    activeSim: 1,
    online: true,
    ip: createModemIp(random),
    band: model.module.mode === "5G" ? "n78" : random.pick(sim.operator.bands),
    rx: random.int(0, 50_000_000),
    tx: random.int(0, 10_000_000),
    connectedAt: now - random.int(60, 86_400) * 1000,
    radio: createRadio(random),
    roaming: false,
    degraded: false,
  };
}

/** The model and serial a router claims when it joins by zero-touch; it reports the same ones. */
export interface RouterClaim {
  model: string;
  serial: string;
}

/**
 * A freshly picked router: model, firmware, serial, modems, tunnels and ports, all from `random`.
 * With a `claim`, the router is of the claimed model (a catalogue model of that name, else the
 * picked one under that name) and has the claimed serial.
 */
export function createRouterState(
  ident: string,
  random: Random,
  now: number,
  claim?: RouterClaim,
): RouterState {
  const picked = random.pick(ROUTER_MODELS);
  const model =
    claim === undefined
      ? picked
      : (ROUTER_MODELS.find((m) => m.model === claim.model) ?? { ...picked, model: claim.model });
  const tunnelCount = random.int(0, 2);
  const tunnels = TUNNEL_TEMPLATES.slice(0, tunnelCount).map(
    (template, index): TunnelState => ({
      name: template.name,
      kind: template.kind,
      remote: template.remote,
      local: `10.${8 + index}.0.${random.int(2, 250)}`,
      up: random.chance(0.85),
      running: true,
      rx: 0,
      tx: 0,
    }),
  );
  const uptimeSeconds = random.int(300, 30 * 86_400);
  return {
    ident,
    model,
    firmware: random.pick(model.firmwares),
    serial: claim?.serial ?? random.digits(model.serialDigits),
    hostname: `${model.model.replace(/\s+/g, "-")}-${ident}`,
    bootedAt: now - uptimeSeconds * 1000,
    cpuLoad: random.int(2, 25),
    memoryFree: Math.round(model.memoryTotal * random.float(0.3, 0.6)),
    temperature: model.hasTemperature ? random.int(35, 55) : null,
    lanMac: `00:1E:42:${[0, 0, 0].map(() => random.int(0, 255).toString(16).padStart(2, "0").toUpperCase()).join(":")}`,
    lanRx: random.int(0, 100_000_000),
    lanTx: random.int(0, 500_000_000),
    modems: Array.from({ length: model.modems }, (_, index) => createModem(model, index, random, now)),
    tunnels,
    ports: model.ports.map((name, index) => ({
      name,
      up: index === 0 ? model.ports.length === 1 : random.chance(0.6),
      speed: model.portSpeed,
    })),
    gpio: Object.fromEntries(model.gpioPins.map((pin) => [pin, 0 as const])),
    site: createSite(random),
  };
}

/** Cities the simulated fleet stands around (lat, lng), so a map of it shows clusters. */
const SITE_CENTRES = [
  [55.75, 37.62],
  [59.94, 30.31],
  [52.52, 13.4],
  [48.86, 2.35],
  [40.42, -3.7],
  [51.51, -0.13],
  [43.24, 76.89],
  [56.84, 60.6],
] as const;

function createSite(random: Random): { lat: number; lng: number } {
  const [lat, lng] = random.pick(SITE_CENTRES);
  // Within about 30 km of the centre, to five decimals (a metre).
  const round = (value: number) => Math.round(value * 100_000) / 100_000;
  return { lat: round(lat + random.float(-0.3, 0.3)), lng: round(lng + random.float(-0.45, 0.45)) };
}

/** What a reboot does to the state: uptime and counters start again, links come back up. */
export function rebootState(state: RouterState, random: Random, now: number): void {
  state.bootedAt = now;
  state.cpuLoad = random.int(20, 60);
  state.memoryFree = Math.round(state.model.memoryTotal * random.float(0.55, 0.7));
  state.lanRx = 0;
  state.lanTx = 0;
  for (const modem of state.modems) {
    const sim = modem.sims[modem.activeSim - 1];
    modem.online = sim !== null && sim !== undefined;
    modem.ip = modem.online ? createModemIp(random) : null;
    modem.connectedAt = modem.online ? now : null;
    modem.rx = 0;
    modem.tx = 0;
  }
  for (const tunnel of state.tunnels) {
    tunnel.up = true;
    tunnel.running = true;
    tunnel.rx = 0;
    tunnel.tx = 0;
  }
}
