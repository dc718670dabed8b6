import type { Kysely } from "kysely";

/**
 * The audit log says what was done to which object (issue 27 item 14): `kind` from the contract's
 * AUDIT_ROUTES (`script.delete`) and `object` ({type, id, name, count}). Entries written before stay
 * null and are shown by their method and section.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("web_actions").addColumn("kind", "text").addColumn("object", "jsonb").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("web_actions").dropColumn("kind").dropColumn("object").execute();
}
