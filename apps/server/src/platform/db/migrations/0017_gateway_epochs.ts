import type { Kysely } from "kysely";

/**
 * Sequence epochs (docs/device-protocol.md 5.1): a router whose counters restart sends a new `epoch`
 * and the server renumbers its reports after everything stored before (`seq + seq_offset`). The
 * previous epoch is kept too, so a late repeat from it still lands where it belongs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("devices")
    .addColumn("seq_epoch", "bigint")
    .addColumn("seq_offset", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("seq_prev_epoch", "bigint")
    .addColumn("seq_prev_offset", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("devices")
    .dropColumn("seq_epoch")
    .dropColumn("seq_offset")
    .dropColumn("seq_prev_epoch")
    .dropColumn("seq_prev_offset")
    .execute();
}
