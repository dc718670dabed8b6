import type { Kysely } from "kysely";

/**
 * The WAN state a router last reported in `collect/modems` (issue 11): true when a modem is online,
 * false when every modem is offline, null before the first modems report. Status is about contact
 * (spec §4); this is what the list and the page show beside it, so an online router whose uplink is
 * down does not read as fine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("devices").addColumn("wan_up", "boolean").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("devices").dropColumn("wan_up").execute();
}
