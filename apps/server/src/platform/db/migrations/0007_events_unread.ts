import { type Kysely, sql } from "kysely";

/**
 * The unread events of a domain, indexed on their own: every open console asks for the domain's
 * unread count (the menu's 'new' badge) every 30 s and at each alert. With only (domain_id,
 * create_time), that count read every event the domain ever had; the partial index holds only the
 * unread ones, so the count costs what is unread, and shrinks as events are read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_domain_unread on events (domain_id) where not is_read`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists events_domain_unread`.execute(db);
}
