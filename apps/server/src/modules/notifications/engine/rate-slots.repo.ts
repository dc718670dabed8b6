import { type Kysely, sql } from "kysely";
import type { DB } from "../../../platform/db/schema";
import type { PacingKey } from "./pacing";

/**
 * The send times of the keys: shared by every domain using a bot or a webhook, so the repo is
 * installation-wide (apps/server/src/architecture.test.ts).
 */
export function rateSlotsRepo(db: Kysely<DB>) {
  return {
    /**
     * Reserves the earliest time at or after `now` that every key allows, and moves each key's next
     * free time to that slot plus its spacing. Rows are locked in key order, so two transactions
     * reserving the same keys wait for each other instead of deadlocking.
     */
    async reserveSlot(keys: readonly PacingKey[], now: Date): Promise<Date> {
      if (keys.length === 0) return now;
      const sorted = [...keys].sort((a, b) => a.key.localeCompare(b.key));
      await db
        .insertInto("notification_rate_slots")
        .values(sorted.map((entry) => ({ key: entry.key, next_at: now })))
        .onConflict((oc) => oc.column("key").doNothing())
        .execute();
      const rows = await sql<{ key: string; next_at: Date }>`
        select key, next_at from notification_rate_slots
        where key = any(${sorted.map((entry) => entry.key)}::text[])
        order by key for update`.execute(db);
      let slot = now.getTime();
      for (const row of rows.rows) slot = Math.max(slot, new Date(row.next_at).getTime());
      await sql`
        update notification_rate_slots as s set next_at = v.next_at
        from unnest(${sorted.map((entry) => entry.key)}::text[],
          ${sorted.map((entry) => new Date(slot + entry.spacingMs))}::timestamptz[]) as v(key, next_at)
        where s.key = v.key`.execute(db);
      return new Date(slot);
    },

    /** The provider asked to wait (429 retry_after): nothing more under these keys before `until`. */
    async deferKeys(keys: readonly PacingKey[], until: Date): Promise<void> {
      if (keys.length === 0) return;
      await sql`
        update notification_rate_slots set next_at = greatest(next_at, ${until}::timestamptz)
        where key = any(${keys.map((entry) => entry.key)}::text[])`.execute(db);
    },
  };
}
