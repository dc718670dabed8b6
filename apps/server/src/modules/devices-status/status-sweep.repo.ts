import type { DomainSettings } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB, DeviceRow } from "../../platform/db/schema";

/** A device whose stored status may be stale, with its domain's settings. */
export type SweepCandidate = DeviceRow & { settings: DomainSettings };

/** The sweep's queries; it runs for every domain at once, hence AcrossDomains. */
export function statusSweepRepo(db: Kysely<DB>) {
  return {
    /**
     * Devices whose last_status differs from the status their last contact gives now. The SQL
     * mirrors the contract's computeDeviceStatus only to narrow the rows; the service decides. Each
     * domain's thresholds become cut-off times once per run (the materialized `dom`), not once per
     * device: read out of the settings' JSON for every row they cost ~4 s of a million-row scan's
     * 5 s (bench/README.md, "A domain of 1,000,000 routers").
     */
    async findStatusChangesAcrossDomains(now: Date, limit: number): Promise<SweepCandidate[]> {
      const result = await sql<SweepCandidate>`
        with dom as materialized (
          select id, settings,
            ${now}::timestamptz - make_interval(mins => coalesce((
              select (e->>'minutes')::int from jsonb_array_elements(settings->'status') e where e->>'name' = 'online'), -1))
              as online_since,
            ${now}::timestamptz - make_interval(mins => coalesce((
              select (e->>'minutes')::int from jsonb_array_elements(settings->'status') e where e->>'name' = 'pending'), -1))
              as pending_since,
            ${now}::timestamptz - make_interval(mins => coalesce((
              select (e->>'minutes')::int from jsonb_array_elements(settings->'status') e where e->>'name' = 'warning'), -1))
              as warning_since
          from domains)
        select d.*, dom.settings
        from devices d
        join dom on dom.id = d.domain_id
        where d.last_status is distinct from (
          case
            when d.last_contact is null then 'pending'
            when d.last_contact >= dom.online_since then 'online'
            when d.last_contact >= dom.pending_since then 'pending'
            when d.last_contact >= dom.warning_since then 'warning'
            else 'critical'
          end)
        limit ${limit}`.execute(db);
      return result.rows;
    },

    /** Stores the statuses the sweep computed, one statement for all. */
    async updateLastStatusesAcrossDomains(
      changes: ReadonlyArray<{ id: string; status: string }>,
    ): Promise<void> {
      if (changes.length === 0) return;
      await sql`
        update devices as d set last_status = v.status
        from unnest(${changes.map((c) => c.id)}::text[], ${changes.map((c) => c.status)}::text[]) as v(id, status)
        where d.id = v.id`.execute(db);
    },
  };
}
