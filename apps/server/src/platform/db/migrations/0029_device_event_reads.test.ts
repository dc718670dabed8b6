import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0029 (ADR 025): the device list's counts become each user's own. The shared column turns into the
// number of events counted on a router, and every user's read share is rebuilt from what they read.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

async function addUser(id: string, readThrough: number | null): Promise<void> {
  await sql`insert into users (id, domain_id, username, role, password_hash, password_changed_at, events_read_through)
    values (${id}, 'd1', ${id}, 4, 'x', now(), ${readThrough})`.execute(testDb.db);
}

async function addEvent(id: number, device: string | null, flags: { read?: boolean; quiet?: boolean } = {}) {
  await sql`insert into events (id, domain_id, device_id, kind, level, message, is_read, is_quiet)
    values (${id}, 'd1', ${device}, 'router_started', 'info', '', ${flags.read ?? false}, ${flags.quiet ?? false})`.execute(
    testDb.db,
  );
}

describe("migration 0029_device_event_reads", () => {
  it("rebuilds each router's count and each user's reads from the events, and goes back", async () => {
    expect((await migrator().migrateTo("0027_domain_time_zone")).error).toBeUndefined();
    await sql`insert into domains (id, name) values ('d1', 'fleet')`.execute(testDb.db);
    // A count that drifted: 7 stored, three counted events.
    await sql`insert into devices (id, domain_id, ident, events_unread) values ('r1', 'd1', 'R1', 7), ('r2', 'd1', 'R2', 0)`.execute(
      testDb.db,
    );
    await addEvent(1, "r1", { read: true });
    await addEvent(2, "r1");
    await addEvent(3, "r1");
    await addEvent(4, "r1", { read: true, quiet: true });
    await addEvent(5, null);
    await addEvent(6, "r2");
    await addUser("all-to-2", 2);
    await addUser("one-by-one", null);
    await addUser("nothing", null);
    await sql`insert into event_reads (user_id, event_id) values ('one-by-one', 3), ('one-by-one', 4), ('one-by-one', 5)`.execute(
      testDb.db,
    );

    expect((await migrator().migrateTo("0029_device_event_reads")).error).toBeUndefined();
    const totals = await sql<{ id: string; events_total: number }>`select id, events_total from devices
      order by id`.execute(testDb.db);
    expect(totals.rows).toEqual([
      { id: "r1", events_total: 3 },
      { id: "r2", events_total: 1 },
    ]);
    const reads = await sql`select user_id, device_id, read_count from device_event_reads
      order by user_id, device_id`.execute(testDb.db);
    expect(reads.rows).toEqual([
      { user_id: "all-to-2", device_id: "r1", read_count: 2 },
      { user_id: "one-by-one", device_id: "r1", read_count: 1 },
    ]);

    expect((await migrator().migrateDown()).error).toBeUndefined();
    const back = await sql<{ id: string; events_unread: number }>`select id, events_unread from devices
      order by id`.execute(testDb.db);
    expect(back.rows).toEqual([
      { id: "r1", events_unread: 2 },
      { id: "r2", events_unread: 1 },
    ]);
  }, 60_000);
});
