import { DEFAULT_DOMAIN_SETTINGS, type DomainSettings } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { type DB, toJsonb } from "../../platform/db/schema";

/** Domain settings and event-type switches: every function takes the domain id first. */
export function settingsRepo(db: Kysely<DB>) {
  return {
    /** The domain's stored settings; undefined for an unknown domain. */
    async findSettings(domainId: string): Promise<DomainSettings | undefined> {
      const row = await db
        .selectFrom("domains")
        .select(["settings", "time_zone"])
        .where("id", "=", domainId)
        .executeTakeFirst();
      // Settings stored before rollouts were offered (ADR 031) have no `rollouts`: off, any time.
      return (
        row && {
          ...row.settings,
          rollouts: row.settings.rollouts ?? DEFAULT_DOMAIN_SETTINGS.rollouts,
          // Settings stored before remote access (ADR 038) have no limits: the defaults.
          remote_access: row.settings.remote_access ?? DEFAULT_DOMAIN_SETTINGS.remote_access,
          time_zone: row.time_zone,
        }
      );
    },

    /** The domain's IANA time zone; undefined for an unknown domain. */
    async findTimeZone(domainId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom("domains")
        .select("time_zone")
        .where("id", "=", domainId)
        .executeTakeFirst();
      return row?.time_zone;
    },

    /** Replaces the domain's settings; answers whether the domain exists. */
    async saveSettings(domainId: string, settings: DomainSettings): Promise<boolean> {
      const { time_zone, ...stored } = settings;
      const result = await db
        .updateTable("domains")
        .set({ settings: toJsonb(stored), time_zone })
        .where("id", "=", domainId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The kinds the domain switched, with their state; kinds without a row are active. */
    async findEventTypeSwitches(domainId: string): Promise<Map<string, boolean>> {
      const rows = await db
        .selectFrom("event_types")
        .select(["kind", "active"])
        .where("domain_id", "=", domainId)
        .execute();
      return new Map(rows.map((row) => [row.kind, row.active]));
    },

    /** Stores one kind's switch. */
    async saveEventTypeActive(domainId: string, kind: string, active: boolean, now: Date): Promise<void> {
      await db
        .insertInto("event_types")
        .values({ domain_id: domainId, kind, active, update_time: now })
        .onConflict((oc) => oc.columns(["domain_id", "kind"]).doUpdateSet({ active, update_time: now }))
        .execute();
    },
  };
}
