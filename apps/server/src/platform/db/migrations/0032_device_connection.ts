import type { Kysely } from "kysely";

/**
 * Whether a router's main MQTT connection is open now, as the embedded broker saw it (ADR 032):
 * `connected` true or false, null when no broker of this installation has told (an external broker,
 * or not connected since); `connection_time` when it last changed; `connection_node` the gateway
 * node that holds it, so a node's late disconnect never undoes a reconnect on another node, and a
 * restarted node closes what it held before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("devices")
    .addColumn("connected", "boolean")
    .addColumn("connection_time", "timestamptz")
    .addColumn("connection_node", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("devices")
    .dropColumn("connected")
    .dropColumn("connection_time")
    .dropColumn("connection_node")
    .execute();
}
