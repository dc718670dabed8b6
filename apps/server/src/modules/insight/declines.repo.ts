import type { TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import { tagScopeCondition } from "../../platform/db/tag-scope";

/** One modem's mean RSRP and RSSI over two windows of rolled-up hours. */
export interface SignalWindowsRow {
  device_id: string;
  ident: string;
  modem: string;
  rsrp_now: number | null;
  rsrp_before: number | null;
  rssi_now: number | null;
  rssi_before: number | null;
}

const mean = (metric: string, window: "now" | "before", mid: Date) =>
  window === "now"
    ? sql`sum(case when r.hour >= ${mid} then r.${sql.raw(metric)}_sum end)
        / nullif(sum(case when r.hour >= ${mid} then r.${sql.raw(metric)}_n end), 0)`
    : sql`sum(case when r.hour < ${mid} then r.${sql.raw(metric)}_sum end)
        / nullif(sum(case when r.hour < ${mid} then r.${sql.raw(metric)}_n end), 0)`;

/** The dashboard's signal trend, from the hourly rollups of one domain's devices. */
export function declinesRepo(db: Kysely<DB>) {
  return {
    /** Mean RSRP and RSSI per modem in [mid, end) and in [start, mid). */
    async findSignalWindows(
      domainId: string,
      start: Date,
      mid: Date,
      end: Date,
      tagScope: TagScope,
    ): Promise<SignalWindowsRow[]> {
      const result = await sql<SignalWindowsRow>`
        select r.device_id, d.ident, r.modem,
          ${mean("rsrp", "now", mid)} as rsrp_now, ${mean("rsrp", "before", mid)} as rsrp_before,
          ${mean("rssi", "now", mid)} as rssi_now, ${mean("rssi", "before", mid)} as rssi_before
        from devices d
        join signal_rollups r on r.device_id = d.id and r.hour >= ${start} and r.hour < ${end}
        where d.domain_id = ${domainId} and ${tagScopeCondition("d.tags", tagScope)}
        group by r.device_id, d.ident, r.modem`.execute(db);
      return result.rows;
    },
  };
}
