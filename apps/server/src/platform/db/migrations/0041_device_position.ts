import { type Kysely, sql } from "kysely";

/**
 * A router's position (issue 31): latitude and longitude in degrees (WGS 84) and where they came
 * from, 'admin' (set by a person or an import) or 'gps' (reported by the router; the map reads
 * both). All three are null together until a position is known.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("devices")
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("position_source", "text", (c) => c.check(sql`position_source in ('admin', 'gps')`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("devices")
    .dropColumn("position_source")
    .dropColumn("longitude")
    .dropColumn("latitude")
    .execute();
}
