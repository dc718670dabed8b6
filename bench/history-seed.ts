// Seeding for the history benchmark: routers' signal samples written in time order (as ingest writes
// them, so one router's rows are spread over the table like in production), and one router-day of
// every collect type through the real ingest pipeline, to weigh collect_history and sim_usage.
import {
  collectTopic,
  EXAMPLE_BOARD,
  EXAMPLE_ETHERNETS,
  EXAMPLE_INTERFACES,
  EXAMPLE_MODEMS,
  EXAMPLE_ROUTING,
  EXAMPLE_TUNNELS,
  parseDeviceMessage,
} from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import { createIngestPipeline } from "../apps/server/src/modules/ingest/ingest.service";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import type { DB } from "../apps/server/src/platform/db/schema";

const MIN = 60_000;

/**
 * `days` of one sample a minute for every device in `deviceIds`, ending at `end`, minute by minute
 * across the devices; one statement per day. The signal wanders (a slow daily wave and noise).
 */
export async function seedSamples(
  db: Kysely<DB>,
  deviceIds: readonly string[],
  days: number,
  end: Date,
): Promise<void> {
  for (let day = days; day >= 1; day--) {
    const from = new Date(end.getTime() - day * 1440 * MIN);
    await sql`
      insert into signal_samples (device_id, modem, time, rsrp, rsrq, sinr, rssi, csq)
      select d.id, '1-1', ${from}::timestamptz + m * interval '1 minute',
        -95 + 8 * sin(m / 229.0) + (random() * 6 - 3),
        -11 + 3 * sin(m / 229.0) + (random() * 2 - 1),
        12 + 6 * sin(m / 229.0) + (random() * 4 - 2),
        -70 + 8 * sin(m / 229.0) + (random() * 6 - 3),
        18 + (random() * 4)::int
      from generate_series(0, 1439) as m
      cross join unnest(${deviceIds}::text[]) as d(id)
      order by m`.execute(db);
  }
}

/** One minute of a router's six collects, every counter and measurement moving as in the field. */
function minuteOfReports(ident: string, seq: number, ts: number) {
  const moved = (rx: number, k: number) => rx + k * seq * 997;
  const bodies = {
    board: {
      ...EXAMPLE_BOARD,
      uptime: EXAMPLE_BOARD.uptime + seq * 60,
      cpu_load: (seq * 7) % 100,
      memory_free: EXAMPLE_BOARD.memory_free - (seq % 1000),
    },
    interfaces: {
      ...EXAMPLE_INTERFACES,
      interfaces: EXAMPLE_INTERFACES.interfaces.map((i, k) => ({
        ...i,
        rx: moved(i.rx, k + 3),
        tx: moved(i.tx, k + 1),
      })),
    },
    routing: EXAMPLE_ROUTING,
    modems: {
      ...EXAMPLE_MODEMS,
      modems: EXAMPLE_MODEMS.modems.map((m) => ({
        ...m,
        rx: moved(m.rx, 40),
        tx: moved(m.tx, 5),
        uptime: m.uptime + seq * 60,
        rsrp: -94 - (seq % 9),
        rssi: -67 - (seq % 7),
        sinr: 13 - (seq % 5),
        csq: 15 + (seq % 10),
      })),
    },
    ethernets: EXAMPLE_ETHERNETS,
    tunnels: {
      ...EXAMPLE_TUNNELS,
      tunnels: EXAMPLE_TUNNELS.tunnels.map((t, k) => ({
        ...t,
        rx: moved(t.rx, k + 2),
        tx: moved(t.tx, k + 1),
      })),
    },
  } as const;
  return Object.entries(bodies).map(([type, body], index) => {
    const parsed = parseDeviceMessage(
      collectTopic(ident, type as keyof typeof bodies),
      JSON.stringify({ ...body, v: 1, seq: seq * 10 + index, ts }),
    );
    if (!parsed.ok) throw new Error(parsed.detail);
    return parsed;
  });
}

/** A router's `minutes` of all six collects through the ingest pipeline, a transaction a minute. */
export async function ingestRouterMinutes(
  db: Kysely<DB>,
  ident: string,
  minutes: number,
  end: Date,
): Promise<void> {
  let now = end.getTime() - minutes * MIN;
  const bus = createInProcessBus();
  const pipeline = createIngestPipeline(
    { db, bus, now: () => new Date(now), log: { warn() {}, error() {} } },
    { flushIntervalMs: 1 },
  );
  try {
    for (let minute = 1; minute <= minutes; minute++) {
      await Promise.all(minuteOfReports(ident, minute, now).map((report) => pipeline.submit(report)));
      now += MIN;
    }
  } finally {
    await pipeline.close();
    await bus.close();
  }
}
