import type { Kysely } from "kysely";

/**
 * Which stage of a rollout is the routers waiting for a better link (ADR 021): the index of the last
 * stage that startRollout appends after the waves, null when no router was on a weak link at the
 * start. Rollouts started before stay null: their stages do not say which one it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("firmware_rollouts").addColumn("link_stage", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("firmware_rollouts").dropColumn("link_stage").execute();
}
