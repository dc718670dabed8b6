import type { DeviceEventKind, EventLevel } from "@cellfleet/contract";
import { defaultInterface } from "./collects";
import { createModemIp, type RouterState } from "./device";
import type { Random } from "./random";
import { driftRadio } from "./signal";

/** An event the router will publish. */
export interface PendingEvent {
  kind: DeviceEventKind;
  level: EventLevel;
  message: string;
  details: Record<string, unknown>;
}

/** Chance per tick of each thing that can happen to a router (per modem where it says so). */
export interface BehaviourRates {
  /** Per modem with a second SIM: switch SIM. */
  simSwitch: number;
  /** Per modem: lose the data connection (and, if offline, get it back with chance 0.5). */
  modemDrop: number;
  /** A tunnel goes down, or comes back up. */
  tunnelFlap: number;
  hardwareEvent: number;
  gpioChange: number;
  timeSyncError: number;
  reboot: number;
}

/** Rates for a 10-second tick: a quiet but visibly alive fleet (a reboot every ~9 hours per router). */
export const DEFAULT_BEHAVIOUR: BehaviourRates = {
  simSwitch: 0.002,
  modemDrop: 0.002,
  tunnelFlap: 0.01,
  hardwareEvent: 0.001,
  gpioChange: 0.003,
  timeSyncError: 0.0005,
  reboot: 0.0003,
};

/** Rates at which nothing happens but signal drift and traffic; tests start from these. */
export const QUIET_BEHAVIOUR: BehaviourRates = {
  simSwitch: 0,
  modemDrop: 0,
  tunnelFlap: 0,
  hardwareEvent: 0,
  gpioChange: 0,
  timeSyncError: 0,
  reboot: 0,
};

/** What one tick produced: events to publish and whether the router now reboots. */
export interface StepResult {
  events: PendingEvent[];
  reboot: boolean;
}

const HARDWARE_EVENTS: Array<(state: RouterState, random: Random) => PendingEvent> = [
  (state) => ({
    kind: "hardware_event",
    level: "error",
    message: `Modem ${state.modems[0]?.id ?? "1-1"} stopped responding and was power-cycled`,
    details: { component: "modem", modem: state.modems[0]?.id ?? null },
  }),
  (_state, random) => {
    const used = random.int(90, 99);
    return {
      kind: "hardware_event",
      level: "warning",
      message: `Storage ${used}% full`,
      details: { component: "storage", used_percent: used },
    };
  },
  (_state, random) => {
    const voltage = Math.round(random.float(8.5, 9.5) * 10) / 10;
    return {
      kind: "hardware_event",
      level: "warning",
      message: `Supply voltage dropped to ${voltage} V`,
      details: { component: "power", voltage },
    };
  },
  () => ({
    kind: "hardware_event",
    level: "alert",
    message: "Enclosure tamper input triggered",
    details: { component: "tamper" },
  }),
];

/** Advances one modem: signal drift, fallback to 3G on a poor signal, degradation, traffic. */
function stepModem(
  state: RouterState,
  index: number,
  random: Random,
  rates: BehaviourRates,
  now: number,
  seconds: number,
): PendingEvent[] {
  const events: PendingEvent[] = [];
  const modem = state.modems[index];
  modem.radio = driftRadio(modem.radio, random);
  const rsrp = modem.radio.rsrp;
  if (modem.nativeMode !== "3G") {
    if (modem.mode !== "3G" && rsrp < -118) modem.mode = "3G";
    else if (modem.mode === "3G" && rsrp > -112) modem.mode = modem.nativeMode;
  }
  if (!modem.degraded && rsrp < -115) {
    modem.degraded = true;
    events.push({
      kind: "interface_degraded",
      level: "warning",
      message: `Modem ${modem.id}: weak signal, RSRP ${rsrp} dBm`,
      details: { modem: modem.id, rsrp, mode: modem.mode },
    });
  } else if (modem.degraded && rsrp > -108) {
    modem.degraded = false;
    events.push({
      kind: "interface_degraded",
      level: "info",
      message: `Modem ${modem.id}: signal recovered, RSRP ${rsrp} dBm`,
      details: { modem: modem.id, rsrp, mode: modem.mode, recovered: true },
    });
  }
  const hasSim = modem.sims[modem.activeSim - 1] != null;
  if (modem.online && random.chance(rates.modemDrop)) {
    modem.online = false;
    modem.ip = null;
    modem.connectedAt = null;
  } else if (!modem.online && hasSim && random.chance(0.5)) {
    modem.online = true;
    modem.ip = createModemIp(random);
    modem.connectedAt = now;
  }
  if (modem.online) {
    // A few kbit/s of telemetry with bursts, like a router behind a PLC or a camera.
    modem.rx += Math.round(random.float(500, 20_000) * seconds);
    modem.tx += Math.round(random.float(200, 8_000) * seconds);
  }
  const spare = modem.sims.findIndex((sim, slot) => sim !== null && slot !== modem.activeSim - 1);
  if (spare >= 0 && random.chance(rates.simSwitch)) {
    const from = modem.activeSim;
    modem.activeSim = spare + 1;
    modem.online = true;
    modem.ip = createModemIp(random);
    modem.connectedAt = now;
    modem.rx = 0;
    modem.tx = 0;
    const operator = modem.sims[spare]?.operator.name ?? null;
    events.push({
      kind: "sim_switched",
      level: "warning",
      message: `Modem ${modem.id} switched from SIM ${from} to SIM ${modem.activeSim} (${operator})`,
      details: { modem: modem.id, from_sim: from, to_sim: modem.activeSim, operator },
    });
  }
  return events;
}

/**
 * Advances the router by one tick of `seconds`: drifts every modem's signal, moves traffic counters,
 * and rolls the dice for SIM switches, dropped connections, tunnel flaps, hardware, GPIO and time
 * events and a reboot. Mutates `state`; returns the events to publish.
 */
export function stepRouter(
  state: RouterState,
  random: Random,
  rates: BehaviourRates,
  now: number,
  seconds: number,
): StepResult {
  const routeBefore = defaultInterface(state);
  const events = state.modems.flatMap((_, index) => stepModem(state, index, random, rates, now, seconds));
  const routeAfter = defaultInterface(state);
  if (routeAfter !== routeBefore) {
    events.push({
      kind: "default_route_changed",
      level: routeAfter === null ? "error" : "info",
      message:
        routeAfter === null
          ? "No default route: every WAN link is down"
          : `Default route now via ${routeAfter}`,
      details: { from: routeBefore, to: routeAfter },
    });
  }

  state.lanRx += Math.round(random.float(1_000, 30_000) * seconds);
  state.lanTx += Math.round(random.float(2_000, 60_000) * seconds);
  state.cpuLoad = Math.round(Math.min(100, Math.max(1, state.cpuLoad + random.gaussian() * 3)) * 10) / 10;
  const memoryStep = Math.round(random.gaussian() * state.model.memoryTotal * 0.005);
  state.memoryFree = Math.min(
    Math.round(state.model.memoryTotal * 0.8),
    Math.max(Math.round(state.model.memoryTotal * 0.1), state.memoryFree + memoryStep),
  );
  if (state.temperature !== null) {
    state.temperature =
      Math.round(Math.min(85, Math.max(20, state.temperature + random.gaussian() * 0.5)) * 10) / 10;
  }

  for (const tunnel of state.tunnels) {
    if (!tunnel.up) continue;
    tunnel.rx += Math.round(random.float(100, 5_000) * seconds);
    tunnel.tx += Math.round(random.float(100, 3_000) * seconds);
  }
  if (state.tunnels.length > 0 && random.chance(rates.tunnelFlap)) {
    const tunnel = random.pick(state.tunnels);
    tunnel.up = !tunnel.up;
    events.push({
      kind: "tunnel_status",
      level: tunnel.up ? "info" : "warning",
      message: `Tunnel ${tunnel.name} is ${tunnel.up ? "up" : "down: peer not responding"}`,
      details: { tunnel: tunnel.name, kind: tunnel.kind, state: tunnel.up ? "up" : "down" },
    });
  }
  if (random.chance(rates.hardwareEvent)) events.push(random.pick(HARDWARE_EVENTS)(state, random));
  const pins = Object.keys(state.gpio);
  if (pins.length > 0 && random.chance(rates.gpioChange)) {
    const pin = random.pick(pins);
    const value = state.gpio[pin] === 1 ? 0 : 1;
    state.gpio[pin] = value;
    events.push({
      kind: "gpio_value_change",
      level: "info",
      message: `Input ${pin} changed to ${value}`,
      details: { pin, value },
    });
  }
  if (random.chance(rates.timeSyncError)) {
    events.push({
      kind: "time_sync_error",
      level: "warning",
      message: "Time synchronisation failed: NTP server pool.ntp.org did not answer",
      details: { server: "pool.ntp.org" },
    });
  }
  return { events, reboot: random.chance(rates.reboot) };
}
