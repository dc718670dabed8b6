import type { DataPlan, TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB, EventRow } from "../../platform/db/schema";
import { toJsonb } from "../../platform/db/schema";
import { rowRouterWithinTagScope } from "../../platform/db/tag-scope";

/** One SIM's bytes in one router on one day. */
export interface UsageDayRow {
  iccid: string;
  day: string;
  device_id: string;
  modem: string;
  slot: number;
  rx: number;
  tx: number;
  seen: Date;
}

/** A SIM's own plan and the threshold its period has raised an event for. */
export interface SimCardRow {
  iccid: string;
  plan: DataPlan | null;
  alerted_period: string | null;
  alerted_percent: number;
}

/** A day column (`date`) as `YYYY-MM-DD`, whichever way the driver reads it. */
function dayText(value: unknown): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
}

/** SIM usage and data plans of one domain: every function takes the domain id first. */
export function usageRepo(db: Kysely<DB>) {
  return {
    /** ICCIDs that moved data in the device since `sinceDay`. */
    async findDeviceIccids(domainId: string, deviceId: string, sinceDay: string): Promise<string[]> {
      const rows = await db
        .selectFrom("sim_usage")
        .select("iccid")
        .distinct()
        .where("domain_id", "=", domainId)
        .where("device_id", "=", deviceId)
        .where("day", ">=", sinceDay)
        .execute();
      return rows.map((row) => row.iccid);
    },

    /**
     * The days of these SIMs since `sinceDay`, in any of the domain's routers within the tag scope
     * (a SIM moved to another tag's router is not followed there, ADR 041), oldest first.
     */
    async findUsageDays(
      domainId: string,
      iccids: readonly string[],
      sinceDay: string,
      tagScope: TagScope = [],
    ): Promise<UsageDayRow[]> {
      if (iccids.length === 0) return [];
      const rows = await db
        .selectFrom("sim_usage")
        .select(["iccid", "day", "device_id", "modem", "slot", "rx", "tx", "seen"])
        .where("domain_id", "=", domainId)
        .where("iccid", "in", iccids)
        .where("day", ">=", sinceDay)
        .$if(tagScope.length > 0, (q) => q.where(rowRouterWithinTagScope("sim_usage", tagScope)))
        .orderBy("seen")
        .execute();
      return rows.map((row) => ({ ...row, day: dayText(row.day), rx: Number(row.rx), tx: Number(row.tx) }));
    },

    async findSimCards(domainId: string, iccids: readonly string[]): Promise<SimCardRow[]> {
      if (iccids.length === 0) return [];
      const rows = await db
        .selectFrom("sim_cards")
        .select(["iccid", "plan_bytes", "reset_day", "alerted_period", "alerted_percent"])
        .where("domain_id", "=", domainId)
        .where("iccid", "in", iccids)
        .execute();
      return rows.map((row) => ({
        iccid: row.iccid,
        plan:
          row.plan_bytes !== null && row.reset_day !== null
            ? { plan_bytes: Number(row.plan_bytes), reset_day: row.reset_day }
            : null,
        alerted_period: row.alerted_period === null ? null : dayText(row.alerted_period),
        alerted_percent: row.alerted_percent,
      }));
    },

    /** Bytes per device and SIM over the UTC days [fromDay, toDay) (uptime reports). */
    async findUsageOfDevices(
      domainId: string,
      deviceIds: readonly string[],
      fromDay: string,
      toDay: string,
    ): Promise<Array<{ device_id: string; iccid: string; rx: number; tx: number }>> {
      if (deviceIds.length === 0) return [];
      const rows = await db
        .selectFrom("sim_usage")
        .select((eb) => [
          "device_id",
          "iccid",
          eb.fn.sum<string>("rx").as("rx"),
          eb.fn.sum<string>("tx").as("tx"),
        ])
        .where("domain_id", "=", domainId)
        .where(sql<boolean>`device_id = any(${deviceIds}::text[])`)
        .where("day", ">=", fromDay)
        .where("day", "<", toDay)
        .groupBy(["device_id", "iccid"])
        .orderBy("device_id")
        .orderBy("iccid")
        .execute();
      return rows.map((row) => ({ ...row, rx: Number(row.rx), tx: Number(row.tx) }));
    },

    /** SIMs of the domain with a plan of their own. */
    async findPlannedIccids(domainId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("sim_cards")
        .select("iccid")
        .where("domain_id", "=", domainId)
        .where("plan_bytes", "is not", null)
        .execute();
      return rows.map((row) => row.iccid);
    },

    /** Sets (or with null removes) a SIM's own plan; its threshold state starts again. */
    async setSimPlan(domainId: string, iccid: string, plan: DataPlan | null): Promise<void> {
      const values = {
        plan_bytes: plan?.plan_bytes ?? null,
        reset_day: plan?.reset_day ?? null,
        alerted_period: null,
        alerted_percent: 0,
      };
      await db
        .insertInto("sim_cards")
        .values({ domain_id: domainId, iccid, ...values })
        .onConflict((oc) => oc.columns(["domain_id", "iccid"]).doUpdateSet(values))
        .execute();
    },

    async recordAlert(domainId: string, iccid: string, period: string, percent: number): Promise<void> {
      await db
        .insertInto("sim_cards")
        .values({ domain_id: domainId, iccid, alerted_period: period, alerted_percent: percent })
        .onConflict((oc) =>
          oc
            .columns(["domain_id", "iccid"])
            .doUpdateSet({ alerted_period: period, alerted_percent: percent }),
        )
        .execute();
    },

    async findTagPlans(domainId: string): Promise<Array<DataPlan & { tag: string }>> {
      const rows = await db
        .selectFrom("tag_plans")
        .select(["tag", "plan_bytes", "reset_day"])
        .where("domain_id", "=", domainId)
        .orderBy("tag")
        .execute();
      return rows.map((row) => ({
        tag: row.tag,
        plan_bytes: Number(row.plan_bytes),
        reset_day: row.reset_day,
      }));
    },

    async setTagPlan(domainId: string, tag: string, plan: DataPlan | null): Promise<void> {
      if (plan === null) {
        await db.deleteFrom("tag_plans").where("domain_id", "=", domainId).where("tag", "=", tag).execute();
        return;
      }
      await db
        .insertInto("tag_plans")
        .values({ domain_id: domainId, tag, plan_bytes: plan.plan_bytes, reset_day: plan.reset_day })
        .onConflict((oc) =>
          oc
            .columns(["domain_id", "tag"])
            .doUpdateSet({ plan_bytes: plan.plan_bytes, reset_day: plan.reset_day }),
        )
        .execute();
    },

    /** The router each SIM moved data in last (since `sinceDay`). */
    async findLatestPlaces(
      domainId: string,
      sinceDay: string,
    ): Promise<Array<{ iccid: string; device_id: string }>> {
      const result = await sql<{ iccid: string; device_id: string }>`
        select distinct on (iccid) iccid, device_id
        from sim_usage
        where domain_id = ${domainId} and day >= ${sinceDay}::date
        order by iccid, seen desc`.execute(db);
      return result.rows;
    },

    /** Bytes of each SIM from its own period start (inclusive) on. */
    async sumUsageSince(
      domainId: string,
      starts: ReadonlyArray<{ iccid: string; start: string }>,
    ): Promise<Map<string, number>> {
      if (starts.length === 0) return new Map();
      const result = await sql<{ iccid: string; total: string }>`
        select u.iccid, sum(u.rx + u.tx)::text as total
        from unnest(${starts.map((s) => s.iccid)}::text[], ${starts.map((s) => s.start)}::date[]) as p(iccid, start)
        join sim_usage u on u.domain_id = ${domainId} and u.iccid = p.iccid and u.day >= p.start
        group by u.iccid`.execute(db);
      return new Map(result.rows.map((row) => [row.iccid, Number(row.total)]));
    },

    /** Devices of the domain by id: ident and tags. */
    async findDevicesBrief(
      domainId: string,
      deviceIds: readonly string[],
    ): Promise<Array<{ id: string; ident: string; tags: string[] }>> {
      if (deviceIds.length === 0) return [];
      return db
        .selectFrom("devices")
        .select(["id", "ident", "tags"])
        .where("domain_id", "=", domainId)
        .where("id", "in", deviceIds)
        .execute();
    },

    /** Domains that have a plan of a SIM or of a tag: the only ones the threshold check looks at. */
    async findDomainsWithPlansAcrossDomains(): Promise<string[]> {
      const result = await sql<{ domain_id: string }>`
        select domain_id from sim_cards where plan_bytes is not null
        union
        select domain_id from tag_plans`.execute(db);
      return result.rows.map((row) => row.domain_id);
    },

    /** Raises a server event about a device and counts it unread on the device. */
    async insertDeviceEvent(
      domainId: string,
      event: {
        device_id: string;
        kind: string;
        level: EventRow["level"];
        message: string;
        details: Record<string, unknown>;
        create_time: Date;
      },
    ): Promise<EventRow> {
      const row = await db
        .insertInto("events")
        .values({ ...event, domain_id: domainId, details: toJsonb(event.details) })
        .returningAll()
        .executeTakeFirstOrThrow();
      await db
        .updateTable("devices")
        .set((eb) => ({ events_total: eb("events_total", "+", 1) }))
        .where("domain_id", "=", domainId)
        .where("id", "=", event.device_id)
        .execute();
      return row;
    },
  };
}
