import { type Kysely, sql } from "kysely";

/**
 * The domains a firmware rollout is offered to (ADR 031): one row per domain, its answer
 * (offered, accepted, declined), the window its admin chose on accepting (minutes of the day in
 * the domain's zone; null: any time), who decided (null with `auto` when the domain's setting
 * accepted it). The driver sends a router only when its domain's row says accepted.
 *
 * Rollouts started before get a row per domain of their targets: a finished one's 'accepted' (what
 * it sent, it sent), a running or paused one's 'offered', so its routers not yet sent wait for
 * their admin like a new rollout's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("firmware_rollout_domains")
    .addColumn("rollout_id", "text", (c) =>
      c.notNull().references("firmware_rollouts.id").onDelete("cascade"),
    )
    .addColumn("domain_id", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("auto", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("window_start", "integer")
    .addColumn("window_end", "integer")
    .addColumn("decided_by", "text")
    .addColumn("decide_time", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("firmware_rollout_domains_pk", ["rollout_id", "domain_id"])
    .execute();
  await db.schema
    .createIndex("firmware_rollout_domains_domain")
    .on("firmware_rollout_domains")
    .columns(["domain_id", "create_time"])
    .execute();
  await sql`
    insert into firmware_rollout_domains (rollout_id, domain_id, state, auto, create_time)
    select distinct t.rollout_id, t.domain_id,
      case when r.status in ('completed', 'cancelled') then 'accepted' else 'offered' end,
      false, r.create_time
    from firmware_rollout_targets t join firmware_rollouts r on r.id = t.rollout_id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("firmware_rollout_domains").execute();
}
