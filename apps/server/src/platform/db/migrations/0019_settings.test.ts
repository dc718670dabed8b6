import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0019 gives pending its minutes in every domain's settings: equal to the domain's online minutes,
// so no router changes status on upgrade; and back again on the way down.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

async function statusOf(name: string): Promise<unknown> {
  const result = await sql<{
    status: unknown;
  }>`select settings->'status' as status from domains where name = ${name}`.execute(testDb.db);
  return result.rows[0]?.status;
}

describe("migration 0019_settings", () => {
  it("adds pending at each domain's online minutes, makes new domains start with it, and takes it away on the way down", async () => {
    const before = await migrator().migrateTo("0014_notifications");
    expect(before.error).toBeUndefined();
    await sql`insert into domains (id, name, settings) values ('d1', 'tuned', ${JSON.stringify({
      status: [
        { name: "online", minutes: 20 },
        { name: "warning", minutes: 90 },
      ],
      backup: { copies: 3 },
      journal: { copies: 4 },
    })}::jsonb)`.execute(testDb.db);
    expect((await migrator().migrateTo("0019_settings")).error).toBeUndefined();
    expect(await statusOf("tuned")).toEqual([
      { name: "online", minutes: 20 },
      { name: "warning", minutes: 90 },
      { name: "pending", minutes: 20 },
    ]);
    await sql`insert into domains (id, name) values ('d2', 'fresh')`.execute(testDb.db);
    expect(await statusOf("fresh")).toEqual([
      { name: "online", minutes: 15 },
      { name: "pending", minutes: 15 },
      { name: "warning", minutes: 60 },
    ]);
    expect((await migrator().migrateDown()).error).toBeUndefined();
    expect(await statusOf("tuned")).toEqual([
      { name: "online", minutes: 20 },
      { name: "warning", minutes: 90 },
    ]);
  }, 60_000);
});
