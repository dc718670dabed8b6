import type { TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import { type DB, toJsonb } from "../../platform/db/schema";
import { tagScopeCondition } from "../../platform/db/tag-scope";

/** A router a report covers. */
export interface ReportDeviceRow {
  id: string;
  ident: string;
  description: string;
  create_time: Date;
  last_contact: Date | null;
}

/** Which routers of the domain a report covers: all, those with a tag, or one. */
export interface ReportDeviceFilter {
  tag?: string;
  deviceId?: string;
  /** The caller's tag scope (ADR 041): a report covers only the routers the caller reaches. */
  tagScope?: TagScope;
}

/**
 * The routers an uptime report covers (issue 31, ADR 044); the history itself is read through the
 * insight and firmware repos. Every function takes the domain id first.
 */
export function uptimeRepo(db: Kysely<DB>) {
  return {
    /** The domain's routers of the filter created before `createdBefore`, by ident. */
    async findReportDevices(
      domainId: string,
      filter: ReportDeviceFilter,
      createdBefore: Date,
    ): Promise<ReportDeviceRow[]> {
      let query = db
        .selectFrom("devices")
        .select(["id", "ident", "description", "create_time", "last_contact"])
        .where("domain_id", "=", domainId)
        .where("create_time", "<", createdBefore);
      if (filter.tag !== undefined)
        query = query.where(sql<boolean>`tags @> ${toJsonb([filter.tag])}::jsonb`);
      if (filter.deviceId !== undefined) query = query.where("id", "=", filter.deviceId);
      return query
        .where(tagScopeCondition("tags", filter.tagScope ?? []))
        .orderBy("ident")
        .execute();
    },

    /** The domain's name, heading its PDF report. */
    async findDomainName(domainId: string): Promise<string> {
      const row = await db.selectFrom("domains").select("name").where("id", "=", domainId).executeTakeFirst();
      return row?.name ?? "";
    },

    /** Whether any router of the domain within the tag scope carries the tag now. */
    async hasTag(domainId: string, tag: string, tagScope: TagScope = []): Promise<boolean> {
      const row = await db
        .selectFrom("devices")
        .select("id")
        .where("domain_id", "=", domainId)
        .where(sql<boolean>`tags @> ${toJsonb([tag])}::jsonb`)
        .where(tagScopeCondition("tags", tagScope))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The SIM slot of each modem in the devices' latest modems reports. */
    async findModemSlots(
      domainId: string,
      deviceIds: readonly string[],
    ): Promise<Array<{ device_id: string; modem: string; slot: number }>> {
      if (deviceIds.length === 0) return [];
      const result = await sql<{ device_id: string; modem: string; slot: number }>`
        select c.device_id, m->>'id' as modem, (m->>'sim')::int as slot
        from device_collects c, jsonb_array_elements(c.data->'modems') as m
        where c.domain_id = ${domainId} and c.device_id = any(${deviceIds}::text[]) and c.type = 'modems'
          and m->>'sim' is not null`.execute(db);
      return result.rows.map((row) => ({ ...row, slot: Number(row.slot) }));
    },
  };
}
