import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useMigrationTestDb } from "../../../test/migration-db";

// 0030 (ADR 021): a rollout says which of its stages is the routers waiting for a better link.
// A rollout started before keeps null (its stages do not say); the column goes on the way down.

const testDb = useMigrationTestDb();
const migrator = () => testDb.migrator();

const columns = async () =>
  (
    await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_name = 'firmware_rollouts' and column_name = 'link_stage'`.execute(testDb.db)
  ).rows.map((row) => row.column_name);

async function addRollout(id: string, linkStage?: number): Promise<void> {
  const link = linkStage === undefined ? sql`` : sql`, link_stage`;
  const value = linkStage === undefined ? sql`` : sql`, ${linkStage}`;
  await sql`insert into firmware_rollouts (id, rule_id, version, file_key, options, status, stage_count,
      total, author_id, create_time, update_time${link})
    values (${id}, 'rule', '1.0', 'key', '{}'::jsonb, 'running', 3, 3, 'root', now(), now()${value})`.execute(
    testDb.db,
  );
}

describe("migration 0030_rollout_link_stage", () => {
  it("adds a nullable link_stage to rollouts, null for those started before, and drops it on the way down", async () => {
    expect((await migrator().migrateTo("0029_device_event_reads")).error).toBeUndefined();
    await addRollout("before");
    expect(await columns()).toEqual([]);

    expect((await migrator().migrateTo("0030_rollout_link_stage")).error).toBeUndefined();
    expect(await columns()).toEqual(["link_stage"]);
    await addRollout("after", 2);
    const rows = await sql<{ id: string; link_stage: number | null }>`select id, link_stage
      from firmware_rollouts order by id`.execute(testDb.db);
    expect(rows.rows).toEqual([
      { id: "after", link_stage: 2 },
      { id: "before", link_stage: null },
    ]);

    expect((await migrator().migrateDown()).error).toBeUndefined();
    expect(await columns()).toEqual([]);
    const kept = await sql<{ id: string }>`select id from firmware_rollouts order by id`.execute(testDb.db);
    expect(kept.rows.map((row) => row.id)).toEqual(["after", "before"]);
  }, 60_000);
});
