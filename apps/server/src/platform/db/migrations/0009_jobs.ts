import { type Kysely, sql } from "kysely";

/**
 * Durable jobs (platform/jobs, ADR 007): work after a commit is a row written in the same
 * transaction as the change, claimed by a dispatcher with FOR UPDATE SKIP LOCKED.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    // Null for platform work that belongs to no domain (a registration mail before the domain exists).
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("payload", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // A password or token the handler needs, sealed with the "job-payload" key; erased once done.
    .addColumn("sealed", "text")
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql`state in ('queued', 'running', 'done', 'failed', 'dead')`),
    )
    .addColumn("run_at", "timestamptz", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("dedupe_key", "text")
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("finish_time", "timestamptz")
    .execute();
  // The claim's scan: due jobs in order, live states only, so done rows never slow it down.
  await sql`create index jobs_due on jobs (run_at) where state in ('queued', 'failed')`.execute(db);
  // The watchdog's scan: running jobs by lease end.
  await sql`create index jobs_running on jobs (locked_until) where state = 'running'`.execute(db);
  // A dedupe key is unique among live jobs only: once one is done, the same key may be queued again.
  await sql`create unique index jobs_dedupe on jobs (dedupe_key)
    where dedupe_key is not null and state in ('queued', 'running', 'failed')`.execute(db);
  // The person-facing list (newest first, by domain and state) and the cleanup of old done jobs.
  await db.schema
    .createIndex("jobs_domain_state_time")
    .on("jobs")
    .columns(["domain_id", "state", "create_time"])
    .execute();
  await db.schema.createIndex("jobs_state_time").on("jobs").columns(["state", "create_time"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("jobs").execute();
}
