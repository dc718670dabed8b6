import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0027 gives each domain a time zone: 'UTC', or the zone most of its schedule rules used, so those
// rules keep firing at the same instants; the rules' own zone goes, and comes back on the way down.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

const zones = async () =>
  Object.fromEntries(
    (
      await sql<{ id: string; time_zone: string }>`select id, time_zone from domains order by id`.execute(
        testDb.db,
      )
    ).rows.map((row) => [row.id, row.time_zone]),
  );

async function addRule(id: string, domainId: string, zone: string): Promise<void> {
  await sql`insert into schedule_rules (id, domain_id, type, name, active, regular, time_zone, active_for,
      copies, create_time, update_time)
    values (${id}, ${domainId}, 'backup', ${id}, true, '{}'::jsonb, ${zone}, 'all', 1, now(), now())`.execute(
    testDb.db,
  );
}

describe("migration 0027_domain_time_zone", () => {
  it("takes the zone most of a domain's rules used, UTC without rules, and gives it back to the rules on the way down", async () => {
    expect((await migrator().migrateTo("0025_zero_touch")).error).toBeUndefined();
    await sql`insert into domains (id, name) values ('d1', 'berlin'), ('d2', 'none'), ('d3', 'tie')`.execute(
      testDb.db,
    );
    await addRule("r1", "d1", "Europe/Berlin");
    await addRule("r2", "d1", "Europe/Berlin");
    await addRule("r3", "d1", "Asia/Tokyo");
    await addRule("r4", "d3", "Asia/Tokyo");
    await addRule("r5", "d3", "America/New_York");
    expect((await migrator().migrateTo("0027_domain_time_zone")).error).toBeUndefined();
    expect(await zones()).toEqual({ d1: "Europe/Berlin", d2: "UTC", d3: "America/New_York" });
    const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_name = 'schedule_rules' and column_name = 'time_zone'`.execute(testDb.db);
    expect(columns.rows).toEqual([]);
    await sql`insert into domains (id, name) values ('d4', 'fresh')`.execute(testDb.db);
    expect((await zones()).d4).toBe("UTC");

    expect((await migrator().migrateDown()).error).toBeUndefined();
    const ruleZones = await sql<{ id: string; time_zone: string }>`select id, time_zone from schedule_rules
      order by id`.execute(testDb.db);
    expect(ruleZones.rows.map((row) => row.time_zone)).toEqual([
      "Europe/Berlin",
      "Europe/Berlin",
      "Europe/Berlin",
      "America/New_York",
      "America/New_York",
    ]);
  }, 60_000);
});
