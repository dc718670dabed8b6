import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0032 (ADR 032): a router's connection now, as the embedded broker saw it. Routers there before
// have none known (null), and the columns go on the way down.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

const columns = async () =>
  (
    await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_name = 'devices' and column_name like 'connect%' order by column_name`.execute(testDb.db)
  ).rows.map((row) => row.column_name);

describe("migration 0032_device_connection", () => {
  it("adds connected, connection_time and connection_node, null for routers there before, and drops them on the way down", async () => {
    expect((await migrator().migrateTo("0030_rollout_link_stage")).error).toBeUndefined();
    await sql`insert into domains (id, name) values ('d1', 'd1')`.execute(testDb.db);
    await sql`insert into devices (id, domain_id, ident) values ('a', 'd1', 'A1')`.execute(testDb.db);
    expect(await columns()).toEqual([]);

    expect((await migrator().migrateTo("0032_device_connection")).error).toBeUndefined();
    expect(await columns()).toEqual(["connected", "connection_node", "connection_time"]);
    const rows = await sql<{ connected: boolean | null }>`select connected from devices`.execute(testDb.db);
    expect(rows.rows).toEqual([{ connected: null }]);

    expect((await migrator().migrateTo("0030_rollout_link_stage")).error).toBeUndefined();
    expect(await columns()).toEqual([]);
  });
});
