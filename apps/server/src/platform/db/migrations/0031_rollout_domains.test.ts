import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0031 (ADR 031): the domains a rollout is offered to. A rollout started before gets a row per
// domain of its targets: accepted when it is over, offered (its admin is asked) while it runs.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

async function addRollout(id: string, status: string, domains: string[]): Promise<void> {
  await sql`insert into firmware_rollouts (id, rule_id, version, file_key, options, status, stage_count,
      total, author_id, create_time, update_time)
    values (${id}, 'rule', '1.0', 'key', '{}'::jsonb, ${status}, 1, ${domains.length}, 'root', now(), now())`.execute(
    testDb.db,
  );
  for (const [index, domain] of domains.entries())
    await sql`insert into firmware_rollout_targets (rollout_id, device_id, domain_id, stage, state, update_time)
      values (${id}, ${`${id}-${index}`}, ${domain}, 0, 'waiting', now())`.execute(testDb.db);
}

describe("migration 0031_rollout_domains", () => {
  it("gives rollouts started before a row per domain, offered while they run, and drops the table on the way down", async () => {
    expect((await migrator().migrateTo("0030_rollout_link_stage")).error).toBeUndefined();
    await addRollout("done", "completed", ["d1", "d1"]);
    await addRollout("live", "running", ["d1", "d2"]);

    expect((await migrator().migrateTo("0031_rollout_domains")).error).toBeUndefined();
    const rows = await sql<{ rollout_id: string; domain_id: string; state: string; auto: boolean }>`
      select rollout_id, domain_id, state, auto from firmware_rollout_domains
      order by rollout_id, domain_id`.execute(testDb.db);
    expect(rows.rows).toEqual([
      { rollout_id: "done", domain_id: "d1", state: "accepted", auto: false },
      { rollout_id: "live", domain_id: "d1", state: "offered", auto: false },
      { rollout_id: "live", domain_id: "d2", state: "offered", auto: false },
    ]);

    expect((await migrator().migrateDown()).error).toBeUndefined();
    const table = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
      where table_name = 'firmware_rollout_domains'`.execute(testDb.db);
    expect(table.rows[0]?.n).toBe(0);
  }, 60_000);
});
