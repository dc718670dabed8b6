import { EXAMPLE_MODEMS, parseDeviceMessage } from "@cellfleet/contract";
import type { TestApp } from "../../test/test-app";
import { createIngestPipeline, type IngestPipeline } from "../ingest/ingest.service";

// Feeds a router's reports through the real ingest pipeline at the test clock's time, so history,
// outages, SIM usage and modem changes are made exactly as in production.

/** What changes in one modems report of the simulated router. */
export interface ModemState {
  sim: number;
  iccid: string;
  operator: string;
  band: string;
  rsrp: number;
  rx: number;
  tx: number;
  csq?: number;
}

/** The ICCIDs the tests' router holds in slots 1 and 2. */
export const SIM_A = "8970100000000000011";
export const SIM_B = "8970100000000000022";

export function modemsBody(seq: number, ts: number, state: ModemState) {
  return {
    v: 1,
    seq,
    ts,
    modems: [
      {
        ...EXAMPLE_MODEMS.modems[0],
        id: "1-1",
        state: 1,
        primary: true,
        sim: state.sim,
        operator: state.operator,
        band: state.band,
        iccid: state.iccid,
        rx: state.rx,
        tx: state.tx,
        rsrq: -10,
        rssi: state.rsrp + 24,
        rsrp: state.rsrp,
        sinr: 12,
        csq: state.csq ?? 20,
      },
    ],
  };
}

/** A router feeding modems reports (and events) through a pipeline on the test's database and clock. */
export interface Feeder {
  pipeline: IngestPipeline;
  /** Sends one modems report made at the clock's time (or at `ts`) and waits until it is committed. */
  modems(state: ModemState, ts?: number): Promise<void>;
  event(kind: string, level?: "info" | "warning"): Promise<void>;
  close(): Promise<void>;
}

export function createFeeder(t: Pick<TestApp, "db" | "bus" | "clock">, ident: string): Feeder {
  const quiet = { warn() {}, error() {} };
  const pipeline = createIngestPipeline(
    { db: t.db, bus: t.bus, now: t.clock.now, log: quiet },
    { flushIntervalMs: 1 },
  );
  let seq = 0;
  const submit = async (topic: string, body: unknown) => {
    const parsed = parseDeviceMessage(topic, JSON.stringify(body));
    if (!parsed.ok) throw new Error(parsed.detail);
    await pipeline.submit(parsed);
  };
  return {
    pipeline,
    modems: (state, ts) =>
      submit(`cellfleet/v1/${ident}/collect/modems`, modemsBody(++seq, ts ?? t.clock.now().getTime(), state)),
    event: (kind, level = "info") =>
      submit(`cellfleet/v1/${ident}/event`, {
        v: 1,
        seq: ++seq,
        ts: t.clock.now().getTime(),
        kind,
        level,
        message: kind,
        details: {},
      }),
    close: () => pipeline.close(),
  };
}
