import { COLLECT_TYPES, CollectSchemas, DeviceEventMessageSchema, type EventKind } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { type BehaviourRates, QUIET_BEHAVIOUR, stepRouter } from "./behaviour";
import { ROUTER_MODELS } from "./catalog";
import { buildCollect, defaultInterface } from "./collects";
import { createRouterState, rebootState } from "./device";
import { Random } from "./random";

const envelope = { v: 1, seq: 1, ts: 1_767_225_600_000 };
const BUSY: BehaviourRates = {
  simSwitch: 0.2,
  modemDrop: 0.2,
  tunnelFlap: 0.3,
  hardwareEvent: 0.2,
  gpioChange: 0.3,
  timeSyncError: 0.1,
  reboot: 0.05,
};

/** Runs `count` routers for `ticks` ticks and hands every collect and event to `visit`. */
function simulate(
  count: number,
  ticks: number,
  rates: BehaviourRates,
  visit: (kind: string, payload: unknown, ident: string) => void,
) {
  for (let i = 0; i < count; i++) {
    const random = new Random(`test:${i}`);
    let now = envelope.ts;
    const ident = `SIM${String(i).padStart(6, "0")}`;
    const state = createRouterState(ident, random, now);
    for (let tick = 0; tick < ticks; tick++) {
      now += 10_000;
      const result = stepRouter(state, random, rates, now, 10);
      for (const event of result.events) visit("event", { ...envelope, ...event }, ident);
      for (const type of COLLECT_TYPES)
        visit(type, { ...envelope, ...buildCollect(type, state, now) }, ident);
      if (result.reboot) rebootState(state, random, now);
    }
  }
}

describe("simulated state", () => {
  it("always makes collects and events the protocol accepts, however busy the routers are", () => {
    const failures: string[] = [];
    const kinds = new Set<EventKind>();
    simulate(60, 80, BUSY, (kind, payload, ident) => {
      const schema =
        kind === "event" ? DeviceEventMessageSchema : CollectSchemas[kind as keyof typeof CollectSchemas];
      const result = schema.safeParse(payload);
      if (!result.success) failures.push(`${ident} ${kind}: ${result.error.message}`);
      else if (kind === "event") kinds.add((result.data as { kind: EventKind }).kind);
    });
    expect(failures.slice(0, 3)).toEqual([]);
    expect([...kinds].sort()).toEqual(
      [
        "default_route_changed",
        "gpio_value_change",
        "hardware_event",
        "interface_degraded",
        "sim_switched",
        "time_sync_error",
        "tunnel_status",
      ].sort(),
    );
  });

  it("plays every model, with one or two modems", () => {
    const models = new Set<string>();
    const modemCounts = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const state = createRouterState("SIM000001", new Random(i), envelope.ts);
      models.add(state.model.model);
      modemCounts.add(state.modems.length);
    }
    expect(models.size).toBe(ROUTER_MODELS.length);
    expect([...modemCounts].sort()).toEqual([1, 2]);
  });

  it("is of the model and serial it claims, for every seed", () => {
    for (let i = 0; i < 20; i++) {
      const state = createRouterState("RUT9551500", new Random(i), envelope.ts, {
        model: "RUT955",
        serial: "1500",
      });
      expect(state.model).toBe(ROUTER_MODELS.find((m) => m.model === "RUT955"));
      expect(state.serial).toBe("1500");
      const other = createRouterState("X1", new Random(i), envelope.ts, { model: "Acme 1", serial: "9" });
      expect([other.model.model, other.serial]).toEqual(["Acme 1", "9"]);
    }
  });

  it("is the same router for the same seed", () => {
    const a = createRouterState("SIM000001", new Random("s"), envelope.ts);
    const b = createRouterState("SIM000001", new Random("s"), envelope.ts);
    expect(a).toEqual(b);
    expect(createRouterState("SIM000001", new Random("t"), envelope.ts)).not.toEqual(a);
  });

  it("changes nothing but signal and counters when quiet", () => {
    const random = new Random(5);
    const state = createRouterState("SIM000001", random, envelope.ts);
    const before = {
      sims: state.modems.map((modem) => modem.activeSim),
      tunnels: state.tunnels.map((t) => t.up),
    };
    const events = [];
    for (let tick = 0; tick < 100; tick++)
      events.push(...stepRouter(state, random, QUIET_BEHAVIOUR, envelope.ts, 10).events);
    expect(events.filter((event) => event.kind !== "interface_degraded")).toEqual([]);
    expect({
      sims: state.modems.map((modem) => modem.activeSim),
      tunnels: state.tunnels.map((t) => t.up),
    }).toEqual(before);
  });

  it("switches SIM with an event, a new operator connection and a new default route", () => {
    // Find a router with a second SIM, then make a switch certain.
    let seed = 0;
    let state = createRouterState("SIM000001", new Random(seed), envelope.ts);
    while (!state.modems.some((modem) => modem.sims.filter(Boolean).length > 1)) {
      state = createRouterState("SIM000001", new Random(++seed), envelope.ts);
    }
    const random = new Random(seed);
    state = createRouterState("SIM000001", random, envelope.ts);
    const modem = state.modems.find((m) => m.sims.filter(Boolean).length > 1);
    if (!modem) throw new Error("no dual-SIM modem");
    const routeBefore = defaultInterface(state);
    const { events } = stepRouter(
      state,
      random,
      { ...QUIET_BEHAVIOUR, simSwitch: 1 },
      envelope.ts + 10_000,
      10,
    );
    expect(modem.activeSim).toBe(2);
    expect(events.find((event) => event.kind === "sim_switched")?.details).toMatchObject({
      from_sim: 1,
      to_sim: 2,
    });
    if (state.model.vendor === "Teltonika" && modem.primary) {
      expect(defaultInterface(state)).not.toBe(routeBefore);
      expect(events.map((event) => event.kind)).toContain("default_route_changed");
    }
  });

  it("restarts uptime and counters on reboot", () => {
    const random = new Random(9);
    const state = createRouterState("SIM000001", random, envelope.ts);
    const later = envelope.ts + 3_600_000;
    rebootState(state, random, later);
    expect(buildCollect("board", state, later + 30_000).uptime).toBe(30);
    expect(
      buildCollect("modems", state, later).modems.every((modem) => modem.rx === 0 && modem.tx === 0),
    ).toBe(true);
  });
});
