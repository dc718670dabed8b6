// A simulated router's history, fed through the server's real ingest pipeline with a clock that walks
// from `days` ago to now: one modems report a minute with a drifting signal (the simulator's own
// random walk), and, at fixed hours, what the charts must show: a SIM switch, a band change, a
// reboot with its counters reset, an outage, and a weaker cell for the last day. The history jobs
// then roll it up, as the hourly job would have.
import { randomUUID } from "node:crypto";
import { parseDeviceMessage } from "@cellfleet/contract";
import { driftRadio, Random } from "@cellfleet/simulator";
import type { Kysely } from "kysely";
import { createIngestPipeline } from "../../apps/server/src/modules/ingest/ingest.service";
import { maintainHistory } from "../../apps/server/src/modules/insight/history.jobs";
import { createInProcessBus } from "../../apps/server/src/platform/bus/in-process-bus";
import type { DB } from "../../apps/server/src/platform/db/schema";

const MIN = 60_000;
/** Reports per transaction: under OUTAGE_MIN_MS (5 min) of reports, so only the planned outage shows. */
const GROUP = 4;
const HOUR = 60 * MIN;

/** The SIM cards of the simulated router, slot 1 and slot 2. */
export const HISTORY_SIMS = [
  { iccid: "8970199200000000017", operator: "MegaFon", bands: ["B3", "B20"] },
  { iccid: "8970299200000000025", operator: "Beeline", bands: ["B7"] },
] as const;

/** When things happen, in hours before the end. */
const PLAN = {
  simSwitch: 40,
  reboot: 30,
  outage: { at: 20, minutes: 45 },
  bandChange: 10,
  weaker: 24,
} as const;

/** Feeds `hours` of one report a minute for `ident` ending at `end`; answers the reports sent. */
export async function seedRouterHistory(
  db: Kysely<DB>,
  options: { ident: string; end: Date; hours: number; seed?: string },
): Promise<number> {
  const random = new Random(options.seed ?? options.ident);
  // `now` walks a minute a report; the pipeline's clock (`committed`) follows a group of reports
  // behind, so four minutes share one transaction and no gap between groups looks like an outage.
  let now = options.end.getTime() - options.hours * HOUR;
  let committed = now;
  const bus = createInProcessBus();
  const pipeline = createIngestPipeline(
    { db, bus, now: () => new Date(committed), log: { warn() {}, error() {} } },
    { flushIntervalMs: 1 },
  );
  let group: Promise<void>[] = [];
  const commit = async () => {
    committed = now;
    await Promise.all(group);
    group = [];
  };
  let radio = { rsrp: -84, rsrq: -8, sinr: 18, rssi: -60, home: { rsrp: -84, rsrq: -8, sinr: 18 } };
  let seq = 0;
  let slot = 0;
  let band: string = HISTORY_SIMS[0].bands[0];
  let rx = 40_000_000;
  let tx = 6_000_000;
  let reports = 0;
  const done = new Set<string>();
  const once = (name: string, hoursBefore: number) => {
    if (done.has(name) || now < options.end.getTime() - hoursBefore * HOUR) return false;
    done.add(name);
    return true;
  };
  const send = async (topic: string, body: Record<string, unknown>) => {
    const parsed = parseDeviceMessage(topic, JSON.stringify({ v: 1, seq: ++seq, ts: now, ...body }));
    if (!parsed.ok) throw new Error(parsed.detail);
    group.push(pipeline.submit(parsed));
    if (group.length >= GROUP) await commit();
  };
  try {
    while (now <= options.end.getTime() - MIN) {
      if (once("simSwitch", PLAN.simSwitch)) {
        slot = 1;
        band = HISTORY_SIMS[1].bands[0];
        rx = 0;
        tx = 0;
        await send(`cellfleet/v1/${options.ident}/event`, {
          kind: "sim_switched",
          level: "warning",
          message: "Modem 1-1 switched from SIM 1 to SIM 2",
          details: { modem: "1-1", from_sim: 1, to_sim: 2 },
        });
      }
      if (once("reboot", PLAN.reboot)) {
        rx = 0;
        tx = 0;
        slot = 0;
        band = HISTORY_SIMS[0].bands[0];
        await send(`cellfleet/v1/${options.ident}/event`, {
          kind: "router_started",
          level: "info",
          message: "Router started after a power loss",
          details: { reason: "power_loss" },
        });
      }
      if (once("weaker", PLAN.weaker)) radio = { ...radio, home: { rsrp: -101, rsrq: -14, sinr: 4 } };
      if (once("bandChange", PLAN.bandChange)) band = HISTORY_SIMS[0].bands[1];
      if (once("outage", PLAN.outage.at)) {
        await commit();
        now += PLAN.outage.minutes * MIN;
        continue;
      }
      radio = driftRadio(radio, random);
      rx += random.int(50_000, 400_000);
      tx += random.int(5_000, 60_000);
      const sim = HISTORY_SIMS[slot] ?? HISTORY_SIMS[0];
      await send(`cellfleet/v1/${options.ident}/collect/modems`, {
        modems: [
          {
            id: "1-1",
            state: 1,
            primary: true,
            mode: "LTE",
            sim: slot + 1,
            operator: sim.operator,
            ip: "10.64.0.2",
            module: "Quectel EC25-E",
            band,
            signal: Math.max(0, Math.min(100, Math.round((radio.rsrp + 120) * 2))),
            imei: "866758041234567",
            iccid: sim.iccid,
            imsi: "250021234567890",
            rx,
            tx,
            uptime: 600,
            rsrq: radio.rsrq,
            rssi: radio.rssi,
            rsrp: radio.rsrp,
            sinr: radio.sinr,
            csq: Math.max(0, Math.min(31, Math.round((radio.rssi + 113) / 2))),
          },
        ],
      });
      reports++;
      now += MIN;
    }
    await commit();
  } finally {
    await pipeline.close();
    await bus.close();
  }
  await maintainHistory({
    db,
    config: { historyRetentionDays: 90, historyRawDays: 7 },
    now: () => options.end,
  });
  return reports;
}

/** The router the insight browser test opens: two days of history in the demo domain. */
export const HISTORY_ROUTER = { ident: "DAY0000001", tags: ["metered", "field"] } as const;

/** Creates the history router in the demo domain with its two days, once (a second start adds nothing). */
export async function seedHistoryRouter(db: Kysely<DB>): Promise<void> {
  const exists = await db
    .selectFrom("devices")
    .select("id")
    .where("ident", "=", HISTORY_ROUTER.ident)
    .executeTakeFirst();
  if (exists) return;
  const end = new Date();
  const demo = await db
    .selectFrom("domains")
    .select("id")
    .where("name", "=", "demo")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("devices")
    .values({
      id: randomUUID(),
      domain_id: demo.id,
      ident: HISTORY_ROUTER.ident,
      description: "Two simulated days: a SIM switch, a reboot, an outage, a band change, a weaker cell",
      tags: JSON.stringify(HISTORY_ROUTER.tags),
      aes_key: "0123456789ABCDEF".repeat(4),
      meta: "{}",
      // Created when its history starts: a router reports nothing before it exists, and the uptime
      // report counts a router from its creation (ADR 044).
      create_time: new Date(end.getTime() - 48 * HOUR),
    })
    .execute();
  await seedRouterHistory(db, { ident: HISTORY_ROUTER.ident, end, hours: 48 });
}
