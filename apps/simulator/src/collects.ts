import type {
  BoardCollect,
  CollectMessageMap,
  CollectType,
  EthernetsCollect,
  InterfaceReport,
  InterfacesCollect,
  ModemsCollect,
  RouteReport,
  RoutingCollect,
  TunnelsCollect,
} from "@cellfleet/contract";
import { type ModemState, modemGateway, modemInterfaceName, type RouterState } from "./device";
import { csqFromRssi, signalPercent } from "./signal";

/** A collect payload without its envelope (`v`, `seq`, `ts`), which the router adds when it sends. */
export type CollectBody<T extends CollectType> = Omit<CollectMessageMap[T], "v" | "seq" | "ts">;

type Omitted<T> = Omit<T, "v" | "seq" | "ts">;

/** Seconds since `since` (ms), never negative. */
const secondsSince = (since: number, now: number) => Math.max(0, Math.floor((now - since) / 1000));

/** The modem whose connection carries the default route: the main one if online, else any online one. */
export function defaultModem(state: RouterState): { modem: ModemState; index: number } | null {
  const online = state.modems.map((modem, index) => ({ modem, index })).filter(({ modem }) => modem.online);
  return online.find(({ modem }) => modem.primary) ?? online[0] ?? null;
}

/** Name of the interface the default route uses, or null when no modem is online. */
export function defaultInterface(state: RouterState): string | null {
  const found = defaultModem(state);
  return found ? modemInterfaceName(state.model, found.index, found.modem.activeSim) : null;
}

export function buildBoard(state: RouterState, now: number): Omitted<BoardCollect> {
  return {
    vendor: state.model.vendor,
    model: state.model.model,
    firmware: state.firmware,
    serial: state.serial,
    hostname: state.hostname,
    uptime: secondsSince(state.bootedAt, now),
    cpu_load: state.cpuLoad,
    memory_total: state.model.memoryTotal,
    memory_free: state.memoryFree,
    temperature: state.temperature,
  };
}

export function buildInterfaces(state: RouterState): Omitted<InterfacesCollect> {
  const wan = state.modems.map(
    (modem, index): InterfaceReport => ({
      name: modemInterfaceName(state.model, index, modem.activeSim),
      kind: "wan",
      state: modem.online ? "up" : "down",
      ipv4: modem.ip ? `${modem.ip}/30` : null,
      mac: null,
      rx: modem.rx,
      tx: modem.tx,
    }),
  );
  const lan: InterfaceReport = {
    name: state.model.vendor === "MikroTik" ? "bridge" : "br-lan",
    kind: "lan",
    state: "up",
    ipv4: "192.168.1.1/24",
    mac: state.lanMac,
    rx: state.lanRx,
    tx: state.lanTx,
  };
  const tunnels = state.tunnels.map(
    (tunnel, index): InterfaceReport => ({
      name: tunnel.kind === "wireguard" ? `wg${index}` : `tun${index}`,
      kind: "other",
      state: tunnel.up ? "up" : "down",
      ipv4: tunnel.up ? `${tunnel.local}/24` : null,
      mac: null,
      rx: tunnel.rx,
      tx: tunnel.tx,
    }),
  );
  const loopback: InterfaceReport = {
    name: "lo",
    kind: "other",
    state: "up",
    ipv4: "127.0.0.1/8",
    mac: null,
    rx: 0,
    tx: 0,
  };
  return { interfaces: [...wan, lan, ...tunnels, loopback] };
}

export function buildRouting(state: RouterState): Omitted<RoutingCollect> {
  const chosen = defaultModem(state);
  const routes: RouteReport[] = [];
  state.modems.forEach((modem, index) => {
    if (!modem.online || modem.ip === null) return;
    routes.push({
      destination: "0.0.0.0/0",
      gateway: modemGateway(modem.ip),
      interface: modemInterfaceName(state.model, index, modem.activeSim),
      metric: modem.primary ? 1 : 2,
      is_default: chosen?.index === index,
    });
  });
  const lanName = state.model.vendor === "MikroTik" ? "bridge" : "br-lan";
  routes.push({
    destination: "192.168.1.0/24",
    gateway: null,
    interface: lanName,
    metric: 0,
    is_default: false,
  });
  state.tunnels.forEach((tunnel, index) => {
    if (!tunnel.up) return;
    const network = tunnel.local.split(".").slice(0, 3).join(".");
    routes.push({
      destination: `${network}.0/24`,
      gateway: null,
      interface: tunnel.kind === "wireguard" ? `wg${index}` : `tun${index}`,
      metric: 0,
      is_default: false,
    });
  });
  return { routes };
}

export function buildModems(state: RouterState, now: number): Omitted<ModemsCollect> {
  return {
    modems: state.modems.map((modem) => {
      const sim = modem.sims[modem.activeSim - 1] ?? null;
      const lte = modem.mode === "LTE" || modem.mode === "5G";
      const registered = sim !== null;
      return {
        id: modem.id,
        state: modem.online ? 1 : 0,
        primary: modem.primary,
        mode: registered ? modem.mode : "unknown",
        sim: modem.activeSim,
        operator: sim?.operator.name ?? null,
        ip: modem.online ? modem.ip : null,
        module: modem.module,
        band: registered ? (lte ? modem.band : "B1") : null,
        signal: registered ? signalPercent(modem.radio.rsrp) : null,
        imei: modem.imei,
        iccid: sim?.iccid ?? null,
        imsi: sim?.imsi ?? null,
        rx: modem.rx,
        tx: modem.tx,
        uptime: modem.online && modem.connectedAt !== null ? secondsSince(modem.connectedAt, now) : 0,
        rsrq: registered && lte ? modem.radio.rsrq : null,
        rssi: registered ? modem.radio.rssi : null,
        rsrp: registered && lte ? modem.radio.rsrp : null,
        sinr: registered && lte ? modem.radio.sinr : null,
        csq: registered ? csqFromRssi(modem.radio.rssi) : 99,
        roaming: registered && modem.roaming,
      };
    }),
  };
}

export function buildEthernets(state: RouterState): Omitted<EthernetsCollect> {
  return {
    ports: state.ports.map((port) => ({
      name: port.name,
      link: port.up ? "up" : "down",
      speed: port.up ? port.speed : null,
      duplex: port.up ? "full" : null,
    })),
  };
}

export function buildTunnels(state: RouterState): Omitted<TunnelsCollect> {
  return {
    tunnels: state.tunnels.map((tunnel) => ({
      name: tunnel.name,
      kind: tunnel.kind,
      state: tunnel.up ? "up" : "down",
      local: tunnel.up ? tunnel.local : null,
      remote: tunnel.remote,
      rx: tunnel.rx,
      tx: tunnel.tx,
      service: tunnel.running ? "running" : "stop",
    })),
  };
}

/** The body of one collect type for the current state. */
export function buildCollect<T extends CollectType>(
  type: T,
  state: RouterState,
  now: number,
): CollectBody<T> {
  const builders: { [K in CollectType]: () => CollectBody<K> } = {
    board: () => buildBoard(state, now),
    interfaces: () => buildInterfaces(state),
    routing: () => buildRouting(state),
    modems: () => buildModems(state, now),
    ethernets: () => buildEthernets(state),
    tunnels: () => buildTunnels(state),
    gps: () => ({ lat: state.site.lat, lng: state.site.lng, accuracy: 5 }),
  };
  return builders[type]() as CollectBody<T>;
}
