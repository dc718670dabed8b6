import type { LicenseError, LicensePayload } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import { type DB, toJsonb } from "../../platform/db/schema";
import type { LicenseRow } from "../../platform/db/schema-licenses";

/**
 * Licences are the installation's, not a domain's: the repo is declared installation-wide in
 * apps/server/src/architecture.test.ts; counting every domain's routers says `AcrossDomains`.
 */
export function licencesRepo(db: Kysely<DB>) {
  return {
    async listLicenses(): Promise<LicenseRow[]> {
      return db.selectFrom("licenses").selectAll().orderBy("create_time").orderBy("id").execute();
    },

    /**
     * The page after the licence `after` (an id) in the list's order (create time, then id): the
     * export walks by keyset; the cursor's time is read back from its row (microseconds).
     */
    async listLicensesAfter(after: string | null, limit: number): Promise<LicenseRow[]> {
      let query = db.selectFrom("licenses as l").selectAll();
      if (after !== null) {
        const cursor = sql`(select k.create_time from licenses k where k.id = ${after})`;
        query = query.where(
          sql<boolean>`(l.create_time > ${cursor} or (l.create_time = ${cursor} and l.id > ${after}))`,
        );
      }
      return query.orderBy("l.create_time").orderBy("l.id").limit(limit).execute();
    },

    async findLicense(id: string): Promise<LicenseRow | undefined> {
      return db.selectFrom("licenses").selectAll().where("id", "=", id).executeTakeFirst();
    },

    async findLicenseByKey(key: string): Promise<LicenseRow | undefined> {
      return db.selectFrom("licenses").selectAll().where("key", "=", key).executeTakeFirst();
    },

    /** Inserts a key; answers false when the key is there already (KEY_ALREADY_EXISTS). */
    async insertLicense(row: { id: string; key: string; create_time: Date }): Promise<boolean> {
      const inserted = await db
        .insertInto("licenses")
        .values({ ...row, refreshing: true })
        .onConflict((conflict) => conflict.column("key").doNothing())
        .returning("id")
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async markRefreshing(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.updateTable("licenses").set({ refreshing: true }).where("id", "in", ids).execute();
    },

    /** Stores a verified licence: it replaces the one held, and clears the last error. */
    async saveDocument(
      id: string,
      document: { payload: LicensePayload; signature: string },
      at: Date,
    ): Promise<void> {
      await db
        .updateTable("licenses")
        .set((eb) => ({
          document: toJsonb(document.payload),
          signature: document.signature,
          last_error: null,
          refreshing: false,
          check_time: at,
          update_time: at,
          activation_date:
            document.payload.status === "active"
              ? eb.fn.coalesce("activation_date", eb.val(at))
              : eb.ref("activation_date"),
        }))
        .where("id", "=", id)
        .execute();
    },

    /** Records a failed attempt; the licence held (if any) stays as it was. */
    async saveError(id: string, error: LicenseError, at: Date): Promise<void> {
      await db
        .updateTable("licenses")
        .set({ last_error: error, refreshing: false, check_time: at })
        .where("id", "=", id)
        .execute();
    },

    /** Routers in the whole installation (the licensed count covers every domain). */
    async countDevicesAcrossDomains(): Promise<number> {
      const row = await db
        .selectFrom("devices")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}

export type LicencesRepo = ReturnType<typeof licencesRepo>;
