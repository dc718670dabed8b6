import type { LastRefusal } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";

/** The last refusal of an ident in one flush of the recorder, with how many refusals it stands for. */
export interface RefusalUpsert {
  ident: string;
  reason: string;
  time: Date;
  address: string | null;
  count: number;
}

/** The gateway's record of refused connections, by ident (which is global, like an MQTT client id). */
export function refusalsRepo(db: Kysely<DB>) {
  return {
    /** One statement per flush: the newest refusal per ident wins, counts add up. */
    async upsertRefusals(rows: readonly RefusalUpsert[]): Promise<void> {
      if (rows.length === 0) return;
      await sql`
        insert into gateway_refusals (ident, reason, time, address, count)
        select * from unnest(
          ${rows.map((r) => r.ident)}::text[], ${rows.map((r) => r.reason)}::text[],
          ${rows.map((r) => r.time)}::timestamptz[], ${rows.map((r) => r.address)}::text[],
          ${rows.map((r) => r.count)}::integer[])
        on conflict (ident) do update set
          reason = excluded.reason, time = excluded.time, address = excluded.address,
          count = gateway_refusals.count + excluded.count`.execute(db);
    },

    /** The last refusal under the ident of one of the domain's devices (made before or after it existed). */
    async findDeviceRefusal(domainId: string, deviceId: string): Promise<LastRefusal | null> {
      const row = await db
        .selectFrom("gateway_refusals")
        .innerJoin("devices", "devices.ident", "gateway_refusals.ident")
        .select([
          "gateway_refusals.reason",
          "gateway_refusals.time",
          "gateway_refusals.address",
          "gateway_refusals.count",
        ])
        .where("devices.domain_id", "=", domainId)
        .where("devices.id", "=", deviceId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        reason: row.reason as LastRefusal["reason"],
        time: row.time.getTime(),
        address: row.address,
        count: row.count,
      };
    },
  };
}
