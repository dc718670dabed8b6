import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { ingestRepo } from "./ingest.repo";
import { insertDevice } from "./ingest.test-support";
import { ingestStatementRepo, type OneStatementBatch } from "./ingest-statement.repo";

// A batch of reports written in one statement (issue 28, ADR 037): it locks the routers' rows, checks
// them and their latest states' seqs against what the plan was read from, and writes only if they
// still hold; otherwise it writes nothing and the batch takes the transaction.

let t: TestApp;
let domainId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: false, runJobs: false });
  domainId = (await buildDomain(t)).id;
});
afterAll(async () => {
  await t.close();
});

/** A board report of seq `seq` for a router, as the plan would write it, read from the database now. */
async function boardBatch(ident: string, seq: number, withStored: boolean): Promise<OneStatementBatch> {
  const r = ingestRepo(t.db);
  const [device] = await r.findDevicesByIdentAcrossDomains([ident]);
  if (!device) throw new Error("no device");
  const now = t.clock.now();
  const stored = withStored ? await r.findCollectsAcrossDomains([device.id]) : null;
  const row = { device_id: device.id, domain_id: domainId, type: "board", seq, create_time: now };
  return {
    idents: [ident],
    devices: [device],
    stored,
    events: [],
    connected: [],
    deviceReported: null,
    collects: [{ ...row, data: { uptime: seq } }],
    history: [{ ...row, changes: { uptime: seq } }],
    insight: { samples: [], usage: new Map(), changes: [], outages: [], dirty: new Map() },
    touches: [
      {
        id: device.id,
        seq,
        model: null,
        firmware: null,
        serial: null,
        has_modems: false,
        signal_csq: null,
        network_mode: null,
        wan_up: null,
        latitude: null,
        longitude: null,
        events_added: 0,
        command_types: null,
      },
    ],
    now,
    contactStaleBefore: new Date(now.getTime() - 60_000),
  };
}

const historySeqs = async (deviceId: string) =>
  (
    await t.db
      .selectFrom("collect_history")
      .select("seq")
      .where("device_id", "=", deviceId)
      .orderBy("seq")
      .execute()
  ).map((row) => Number(row.seq));

/** Another writer's contact with the router, after the batch read it. */
const moveRouter = (deviceId: string) =>
  t.db.updateTable("devices").set({ last_contact: t.clock.now() }).where("id", "=", deviceId).execute();

describe("a batch written in one statement", () => {
  it("writes the latest state, history and device row when nothing moved since they were read", async () => {
    const device = await insertDevice(t, domainId);
    const result = await ingestStatementRepo(t.db).writeBatchAcrossDomains(
      await boardBatch(device.ident, 1, true),
    );
    expect(result.isWritten).toBe(true);
    expect(result.touched.map((row) => [row.id, row.last_contact])).toEqual([[device.id, t.clock.now()]]);
    const stored = await ingestRepo(t.db).findCollectsAcrossDomains([device.id]);
    expect(stored).toEqual([{ device_id: device.id, type: "board", seq: 1, data: { uptime: 1 } }]);
    expect(await historySeqs(device.id)).toEqual([1]);
    // A second batch over what the first wrote: its device row and seqs are as read.
    const again = await ingestStatementRepo(t.db).writeBatchAcrossDomains(
      await boardBatch(device.ident, 2, true),
    );
    expect(again).toEqual({ isWritten: true, touched: [], events: [] });
    expect(await historySeqs(device.id)).toEqual([1, 2]);
  });

  it("writes nothing when the router's row moved after it was read", async () => {
    const device = await insertDevice(t, domainId);
    const batch = await boardBatch(device.ident, 1, false);
    await moveRouter(device.id);
    expect(await ingestStatementRepo(t.db).writeBatchAcrossDomains(batch)).toEqual({
      isWritten: false,
      touched: [],
      events: [],
    });
    expect(await ingestRepo(t.db).findCollectsAcrossDomains([device.id])).toEqual([]);
    expect(await historySeqs(device.id)).toEqual([]);
  });

  it("writes nothing when another writer stored a newer latest state after it was read", async () => {
    const device = await insertDevice(t, domainId);
    await ingestStatementRepo(t.db).writeBatchAcrossDomains(await boardBatch(device.ident, 1, true));
    const batch = await boardBatch(device.ident, 3, true);
    await ingestRepo(t.db).upsertCollectsAcrossDomains(batch.collects.map((row) => ({ ...row, seq: 2 })));
    expect((await ingestStatementRepo(t.db).writeBatchAcrossDomains(batch)).isWritten).toBe(false);
    expect(await historySeqs(device.id)).toEqual([1]);
  });

  it("stores the batch's events, counts the unread ones on the router and writes the outbox event with their ids", async () => {
    const device = await insertDevice(t, domainId);
    const base = await boardBatch(device.ident, 5, true);
    const now = t.clock.now();
    const event = (seq: number, kind: string, quiet: boolean) => ({
      domain_id: domainId,
      device_id: device.id,
      seq,
      kind,
      level: "warning" as const,
      message: `event ${seq}`,
      details: { seq },
      device_time: now,
      create_time: now,
      ...(quiet ? { is_read: true, is_quiet: true } : {}),
    });
    const batch: OneStatementBatch = {
      ...base,
      events: [event(3, "wan_down", false), event(4, "reboot", true), event(5, "wan_up", false)],
      connected: [device.ident],
      deviceReported: (payload, when) => t.ctx.jobs.emitSql(OUTBOX_EVENTS.deviceReported, payload, when),
    };
    const result = await ingestStatementRepo(t.db).writeBatchAcrossDomains(batch);
    expect(result.isWritten).toBe(true);
    expect(result.events.map((row) => [row.seq, row.kind, row.is_quiet])).toEqual([
      ["3", "wan_down", false],
      ["4", "reboot", true],
      ["5", "wan_up", false],
    ]);
    // Only the two unread events count on the router.
    expect(result.touched.map((row) => row.events_total)).toEqual([2]);
    const stored = await t.db
      .selectFrom("events")
      .select(["id", "seq", "is_read", "details"])
      .where("device_id", "=", device.id)
      .orderBy("seq")
      .execute();
    expect(stored.map((row) => [Number(row.seq), row.is_read, row.details])).toEqual([
      [3, false, { seq: 3 }],
      [4, true, { seq: 4 }],
      [5, false, { seq: 5 }],
    ]);
    expect(result.events.map((row) => row.id)).toEqual(stored.map((row) => String(row.id)));
    // One job per subscriber of device.reported, each with the connection and the unread events' ids.
    const jobs = await t.db
      .selectFrom("jobs")
      .select(["kind", "payload", "state", "domain_id"])
      .where("kind", "like", `${OUTBOX_EVENTS.deviceReported}:%`)
      .where(sql<boolean>`payload->'connected' ? ${device.ident}`)
      .orderBy("kind")
      .execute();
    const fresh = [String(stored[0]?.id), String(stored[2]?.id)];
    expect(jobs.map((job) => job.kind)).toEqual(
      t.ctx.jobs
        .kinds()
        .filter((kind) => kind.startsWith(`${OUTBOX_EVENTS.deviceReported}:`))
        .sort(),
    );
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(job).toMatchObject({ state: "queued", domain_id: null });
      expect(job.payload).toEqual({ connected: [device.ident], events: fresh });
    }
    // The same events again (a repeat after a reconnect): nothing stored twice, nothing counted, no job.
    const again = await ingestStatementRepo(t.db).writeBatchAcrossDomains({
      ...(await boardBatch(device.ident, 6, true)),
      events: batch.events,
      connected: [],
      deviceReported: batch.deviceReported,
    });
    expect(again.isWritten).toBe(true);
    expect(again.events).toEqual([]);
    const after = await t.db
      .selectFrom("devices")
      .select("events_total")
      .where("id", "=", device.id)
      .executeTakeFirstOrThrow();
    expect(after.events_total).toBe(2);
    const count = await t.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("kind", "like", `${OUTBOX_EVENTS.deviceReported}:%`)
      .where(sql<boolean>`payload->'connected' ? ${device.ident}`)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(jobs.length);
  });

  it("stores no event and writes no outbox event when the router moved after it was read", async () => {
    const device = await insertDevice(t, domainId);
    const base = await boardBatch(device.ident, 1, false);
    await moveRouter(device.id);
    const now = t.clock.now();
    const result = await ingestStatementRepo(t.db).writeBatchAcrossDomains({
      ...base,
      events: [
        {
          domain_id: domainId,
          device_id: device.id,
          seq: 1,
          kind: "wan_down",
          level: "error",
          message: "",
          details: {},
          device_time: now,
          create_time: now,
        },
      ],
      connected: [device.ident],
      deviceReported: (payload, when) => t.ctx.jobs.emitSql(OUTBOX_EVENTS.deviceReported, payload, when),
    });
    expect(result).toEqual({ isWritten: false, touched: [], events: [] });
    const events = await t.db.selectFrom("events").select("id").where("device_id", "=", device.id).execute();
    expect(events).toEqual([]);
    const jobs = await t.db
      .selectFrom("jobs")
      .select("id")
      .where(sql<boolean>`payload->'connected' ? ${device.ident}`)
      .execute();
    expect(jobs).toEqual([]);
  });

  // Two connections at once: PostgreSQL only (PGlite has one).
  it.skipIf(!process.env.DATABASE_URL)(
    "does not wait for a row another transaction holds: it writes nothing at once",
    async () => {
      const device = await insertDevice(t, domainId);
      const batch = await boardBatch(device.ident, 1, false);
      await t.db.transaction().execute(async (other) => {
        await sql`select id from devices where id = ${device.id} for update`.execute(other);
        expect(await ingestStatementRepo(t.db).writeBatchAcrossDomains(batch)).toEqual({
          isWritten: false,
          touched: [],
          events: [],
        });
      });
      expect(await historySeqs(device.id)).toEqual([]);
      expect((await ingestStatementRepo(t.db).writeBatchAcrossDomains(batch)).isWritten).toBe(true);
    },
    10_000,
  );
});
