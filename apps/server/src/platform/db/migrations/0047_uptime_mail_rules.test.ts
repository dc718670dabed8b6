import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0047 (ADR 044): the monthly uptime mail's rules, a table of their own that goes on the way down
// and takes a domain's rules with the domain.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

const hasTable = async () =>
  (
    await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
      where table_name = 'uptime_mail_rules'`.execute(testDb.db)
  ).rows[0]?.n === 1;

describe("migration 0047_uptime_mail_rules", () => {
  it("adds uptime_mail_rules, refuses an unknown language, follows its domain, and drops it on the way down", {
    timeout: 60_000,
  }, async () => {
    expect((await migrator().migrateTo("0044_tunnel_recordings")).error).toBeUndefined();
    expect(await hasTable()).toBe(false);

    expect((await migrator().migrateTo("0047_uptime_mail_rules")).error).toBeUndefined();
    await sql`insert into domains (id, name) values ('d1', 'd1')`.execute(testDb.db);
    await sql`insert into uptime_mail_rules (id, domain_id, name, recipients, scope, language, next_run, create_time)
      values ('r1', 'd1', 'Monthly', '["a@b.example"]', 'domain', 'en', now(), now())`.execute(testDb.db);
    const rows = await sql<{
      active: boolean;
      tag: string | null;
    }>`select active, tag from uptime_mail_rules`.execute(testDb.db);
    expect(rows.rows).toEqual([{ active: true, tag: null }]);
    await expect(
      sql`insert into uptime_mail_rules (id, domain_id, name, recipients, scope, language, create_time)
        values ('r2', 'd1', 'M', '[]', 'domain', 'de', now())`.execute(testDb.db),
    ).rejects.toThrow();
    await sql`delete from domains where id = 'd1'`.execute(testDb.db);
    expect((await sql`select id from uptime_mail_rules`.execute(testDb.db)).rows).toEqual([]);

    expect((await migrator().migrateTo("0044_tunnel_recordings")).error).toBeUndefined();
    expect(await hasTable()).toBe(false);
  });
});
