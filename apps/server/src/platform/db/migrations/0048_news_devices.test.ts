import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0048 (ADR 041): the routers an in-app notification is about; older items have none, and the
// column goes on the way down.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

const columns = async () =>
  (
    await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_name in ('notification_news', 'notification_deliveries') and column_name = 'device_ids'`.execute(
      testDb.db,
    )
  ).rows.length;

describe("migration 0048_news_devices", () => {
  it("adds device_ids to news and deliveries, null for older items, and drops it on the way down", {
    timeout: 60_000,
  }, async () => {
    expect((await migrator().migrateTo("0047_uptime_mail_rules")).error).toBeUndefined();
    await sql`insert into domains (id, name) values ('d1', 'd1')`.execute(testDb.db);
    await sql`insert into notification_news (id, domain_id, level, title, text, create_time)
      values ('n1', 'd1', 'info', 'T', 'X', now())`.execute(testDb.db);
    expect(await columns()).toBe(0);

    expect((await migrator().migrateTo("0048_news_devices")).error).toBeUndefined();
    expect(await columns()).toBe(2);
    const rows = await sql<{ device_ids: unknown }>`select device_ids from notification_news`.execute(
      testDb.db,
    );
    expect(rows.rows).toEqual([{ device_ids: null }]);

    expect((await migrator().migrateTo("0047_uptime_mail_rules")).error).toBeUndefined();
    expect(await columns()).toBe(0);
  });
});
