import { type Kysely, sql } from "kysely";

/**
 * Remote access's recordings kept as the domain says (issue 29, ADR 038): whether a session's
 * recording is in file storage, so the browser offers its replay and the hourly retention job finds
 * those past the domain's `remote_access.recording_days` without looking at the rest. Sessions that
 * ended after opening before this migration have theirs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("tunnel_sessions")
    .addColumn("has_recording", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`update tunnel_sessions set has_recording = true where state = 'ended' and opened_at is not null`.execute(
    db,
  );
  await db.schema
    .createIndex("tunnel_sessions_recorded")
    .on("tunnel_sessions")
    .column("ended_at")
    .where(sql.ref("has_recording"), "=", true)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("tunnel_sessions_recorded").ifExists().execute();
  await db.schema.alterTable("tunnel_sessions").dropColumn("has_recording").execute();
}
