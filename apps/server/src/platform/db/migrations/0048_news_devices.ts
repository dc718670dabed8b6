import type { Kysely } from "kysely";

/**
 * The routers an in-app notification and a delivery are about (issue 30, ADR 041): the ids of the
 * routers their lines name, so a person limited to tags sees only the items about their routers and
 * a provider's fallback mail reaches them only with those. Null: an item about no
 * router (a licence, a password, a person), which everybody of the domain sees. Items made before
 * this migration have null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("notification_news").addColumn("device_ids", "jsonb").execute();
  await db.schema.alterTable("notification_deliveries").addColumn("device_ids", "jsonb").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("notification_deliveries").dropColumn("device_ids").execute();
  await db.schema.alterTable("notification_news").dropColumn("device_ids").execute();
}
