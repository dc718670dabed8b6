import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema";

/** Devices' keys by ident for the broker's accounts; idents are global, like MQTT client ids. */
export function brokerAccountsRepo(db: Kysely<DB>) {
  return {
    /** The keys of the devices among `idents` that exist (null for one without a key). */
    async findKeysByIdentsAcrossDomains(idents: readonly string[]): Promise<Map<string, string | null>> {
      if (idents.length === 0) return new Map();
      const rows = await db
        .selectFrom("devices")
        .select(["ident", "aes_key"])
        .where("ident", "in", idents)
        .execute();
      return new Map(rows.map((row) => [row.ident, row.aes_key]));
    },

    /** One page of every device's ident, in ident order after `after`, for a full reconcile. */
    async listIdentsAcrossDomains(after: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom("devices")
        .select("ident")
        .where("ident", ">", after)
        .orderBy("ident")
        .limit(limit)
        .execute();
      return rows.map((row) => row.ident);
    },
  };
}
