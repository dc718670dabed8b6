import { type Kysely, sql } from "kysely";
import { type DB, type StoredDomainSettings, toJsonb } from "../../platform/db/schema";
import type { NewSoftwareRuleRow, SoftwareRuleRow } from "../../platform/db/schema-firmware";

/** What a finished fetch stored. */
export interface FetchedFile {
  fileKey: string;
  filename: string;
  size: number;
  sha256: string;
}

/**
 * Software rules. They are root's and belong to no domain: one rule fits the routers of its models
 * in every domain, so the repo is installation-wide (architecture.test.ts); a function that reads
 * the routers of every domain says AcrossDomains.
 */
export function firmwareRepo(db: Kysely<DB>) {
  return {
    /** The domain's routers of these models that reported a firmware version. */
    async findDevicesOfModels(
      domainId: string,
      models: readonly string[],
    ): Promise<
      Array<{ id: string; ident: string; tags: string[]; model: string | null; firmware: string | null }>
    > {
      if (models.length === 0) return [];
      return db
        .selectFrom("devices")
        .select(["id", "ident", "tags", "model", "firmware"])
        .where("domain_id", "=", domainId)
        .where("model", "in", [...models])
        .where("firmware", "is not", null)
        .execute();
    },

    /**
     * Routers of these models in every domain (a rule is root's and fits them all), with their
     * last modems report: what a rollout's plan reads.
     */
    /** Routers of these models, in these domains (null: every domain), with their domain's name and settings. */
    async findRolloutCandidatesAcrossDomains(
      models: readonly string[],
      domainIds: readonly string[] | null,
    ): Promise<
      Array<{
        id: string;
        ident: string;
        domain_id: string;
        domain_name: string;
        domain_settings: StoredDomainSettings;
        model: string | null;
        firmware: string | null;
        signal_csq: number | null;
        modems: unknown;
        connected: boolean | null;
      }>
    > {
      if (models.length === 0 || domainIds?.length === 0) return [];
      let query = db
        .selectFrom("devices as d")
        .innerJoin("domains as dm", "dm.id", "d.domain_id")
        .leftJoin("device_collects as c", (join) =>
          join.onRef("c.device_id", "=", "d.id").on("c.type", "=", "modems"),
        )
        .select([
          "d.id",
          "d.ident",
          "d.domain_id",
          "dm.name as domain_name",
          "dm.settings as domain_settings",
          "d.model",
          "d.firmware",
          "d.signal_csq",
          "c.data as modems",
          "d.connected",
        ])
        .where("d.model", "in", [...models]);
      if (domainIds) query = query.where("d.domain_id", "in", [...domainIds]);
      return query.execute();
    },

    async listRules(): Promise<SoftwareRuleRow[]> {
      return db.selectFrom("software_rules").selectAll().orderBy("update_time", "desc").limit(2048).execute();
    },

    /** The CSV export's keyset walk (oldest first, by creation then id), a page at a time. */
    async listRulesAfter(after: string | null, limit: number): Promise<SoftwareRuleRow[]> {
      let query = db.selectFrom("software_rules as r").selectAll();
      if (after !== null) {
        const cursor = sql`(select k.create_time from software_rules k where k.id = ${after})`;
        query = query.where(
          sql<boolean>`(r.create_time > ${cursor} or (r.create_time = ${cursor} and r.id > ${after}))`,
        );
      }
      return query.orderBy("r.create_time").orderBy("r.id").limit(limit).execute();
    },

    async findRule(id: string): Promise<SoftwareRuleRow | undefined> {
      return db.selectFrom("software_rules").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** The row locked for a change, so a save and a fetch's outcome never interleave. */
    async lockRule(id: string): Promise<SoftwareRuleRow | undefined> {
      return db.selectFrom("software_rules").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
    },

    async insertRule(row: Omit<NewSoftwareRuleRow, "models"> & { models: string[] }): Promise<void> {
      await db
        .insertInto("software_rules")
        .values({ ...row, models: toJsonb(row.models) })
        .execute();
    },

    /** Name and models; a new URL (or a sync) also starts a new fetch generation, back to Pending. */
    async updateRule(
      id: string,
      change: { name: string; url: string; models: string[]; updateTime: Date; newFetch: boolean },
    ): Promise<void> {
      let query = db
        .updateTable("software_rules")
        .set({
          name: change.name,
          url: change.url,
          models: toJsonb(change.models),
          update_time: change.updateTime,
        })
        .where("id", "=", id);
      if (change.newFetch)
        query = query.set((eb) => ({
          status: 0,
          error: null,
          fetch_generation: eb("fetch_generation", "+", 1),
        }));
      await query.execute();
    },

    /** The fetch of `generation` moved the rule to `status`; a newer generation's rule is left alone. */
    async setFetchStatus(
      id: string,
      generation: number,
      change: { status: number; error: string | null; updateTime: Date },
    ): Promise<boolean> {
      const result = await db
        .updateTable("software_rules")
        .set({ status: change.status, error: change.error, update_time: change.updateTime })
        .where("id", "=", id)
        .where("fetch_generation", "=", generation)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The fetch of `generation` stored its file whole: Ready, with the file's key, name, size and hash. */
    async setFetchedFile(
      id: string,
      generation: number,
      file: FetchedFile & { status: number; syncTime: Date },
    ): Promise<boolean> {
      const result = await db
        .updateTable("software_rules")
        .set({
          status: file.status,
          error: null,
          file_key: file.fileKey,
          filename: file.filename,
          size: file.size,
          sha256: file.sha256,
          sync_time: file.syncTime,
          update_time: file.syncTime,
        })
        .where("id", "=", id)
        .where("fetch_generation", "=", generation)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Ready rules (a file fetched whole), latest sync first: the newest rule of a model wins. */
    async listReadyRules(): Promise<SoftwareRuleRow[]> {
      return db
        .selectFrom("software_rules")
        .selectAll()
        .where("status", "=", 2)
        .where("file_key", "is not", null)
        .orderBy("sync_time", "desc")
        .execute();
    },

    async deleteRule(id: string): Promise<void> {
      await db.deleteFrom("software_rules").where("id", "=", id).execute();
    },
  };
}
