import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    expect(again).toEqual({ isWritten: true, touched: [] });
    expect(await historySeqs(device.id)).toEqual([1, 2]);
  });

  it("writes nothing when the router's row moved after it was read", async () => {
    const device = await insertDevice(t, domainId);
    const batch = await boardBatch(device.ident, 1, false);
    await t.db
      .updateTable("devices")
      .set({ last_contact: t.clock.now() })
      .where("id", "=", device.id)
      .execute();
    expect(await ingestStatementRepo(t.db).writeBatchAcrossDomains(batch)).toEqual({
      isWritten: false,
      touched: [],
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
        });
      });
      expect(await historySeqs(device.id)).toEqual([]);
      expect((await ingestStatementRepo(t.db).writeBatchAcrossDomains(batch)).isWritten).toBe(true);
    },
    10_000,
  );
});
