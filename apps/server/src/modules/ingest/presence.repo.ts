import { type Kysely, sql } from "kysely";
import type { DB, DeviceRow } from "../../platform/db/schema";

/** One router's connection as a node last saw it in a flush window (presence.ts). */
export interface ConnectionChange {
  ident: string;
  isConnected: boolean;
  time: Date;
  /** It connected to this node within the window: a close is this node's even if the row names none. */
  isOpenedHere: boolean;
}

// Routers' connections now (ADR 032), by ident: MQTT client ids are global, so these statements
// reach every domain's devices and say so in their names.

/** Writes of the gateway's presence tracker: one statement per flush, whatever the number of routers. */
export function presenceRepo(db: Kysely<DB>) {
  return {
    /**
     * Marks the routers connected on this node, or disconnected when the node held them: a close
     * that another node's newer connection already overwrote changes nothing. Answers the devices
     * as they are now, for the sockets.
     */
    async markConnectionsAcrossDomains(
      node: string,
      connections: readonly ConnectionChange[],
    ): Promise<DeviceRow[]> {
      if (connections.length === 0) return [];
      const result = await sql<DeviceRow>`
        update devices set connected = v.connected, connection_time = v.time,
          connection_node = case when v.connected or v.opened_here then ${node} else devices.connection_node end
        from unnest(
          ${connections.map((c) => c.ident)}::text[], ${connections.map((c) => c.isConnected)}::boolean[],
          ${connections.map((c) => c.time)}::timestamptz[], ${connections.map((c) => c.isOpenedHere)}::boolean[]
        ) as v(ident, connected, time, opened_here)
        where devices.ident = v.ident
          and (v.connected or v.opened_here or devices.connection_node = ${node})
          and (devices.connected is distinct from v.connected
            or (v.connected and devices.connection_node is distinct from ${node}))
        returning devices.*`.execute(db);
      return result.rows;
    },

    /**
     * A node starting again closes what it held before it stopped (killed: its routers' connections
     * went with it). Answers the devices it closed.
     */
    async closeNodeConnectionsAcrossDomains(node: string, at: Date): Promise<DeviceRow[]> {
      return db
        .updateTable("devices")
        .set({ connected: false, connection_time: at })
        .where("connection_node", "=", node)
        .where("connected", "=", true)
        .returningAll()
        .execute();
    },

    /** Behind an external broker no node sees connections: what an embedded one once said is forgotten. */
    async forgetConnectionsAcrossDomains(): Promise<void> {
      await db
        .updateTable("devices")
        .set({ connected: null, connection_time: null, connection_node: null })
        .where("connected", "is not", null)
        .execute();
    },
  };
}
