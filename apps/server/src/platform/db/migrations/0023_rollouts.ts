import type { Kysely } from "kysely";

/**
 * Staged firmware rollouts (modules/firmware, ADR 021): root's, so no domain on the rollout; each
 * target names its router's domain. `tick` moves on with each queued advance, so only the newest
 * `rollout.advance` job acts (a stale one returns).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("firmware_rollouts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("rule_id", "text", (c) => c.notNull())
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("file_key", "text", (c) => c.notNull())
    .addColumn("options", "jsonb", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("stage", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stage_count", "integer", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("window_start", "integer")
    .addColumn("window_end", "integer")
    .addColumn("pause_reason", "text")
    .addColumn("tick", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("author_id", "text", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("firmware_rollout_targets")
    .addColumn("rollout_id", "text", (c) =>
      c.notNull().references("firmware_rollouts.id").onDelete("cascade"),
    )
    .addColumn("device_id", "text", (c) => c.notNull())
    .addColumn("domain_id", "text", (c) => c.notNull())
    .addColumn("stage", "integer", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("command_id", "text")
    .addColumn("execution_id", "text")
    .addColumn("deadline", "timestamptz")
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("firmware_rollout_targets_pk", ["rollout_id", "device_id"])
    .execute();
  await db.schema
    .createIndex("firmware_rollout_targets_stage")
    .on("firmware_rollout_targets")
    .columns(["rollout_id", "stage", "state"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("firmware_rollout_targets").execute();
  await db.schema.dropTable("firmware_rollouts").execute();
}
