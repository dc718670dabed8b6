import type { ScriptKind } from "@cellfleet/contract";
import { type Kysely, type Selectable, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { ScriptsTable, ScriptVersionsTable } from "../../platform/db/schema-actions";

export type ScriptRow = Selectable<ScriptsTable>;
export type ScriptVersionRow = Selectable<ScriptVersionsTable>;

/** Saved scripts and templates, one domain at a time; a deleted one is kept for the commands that used it. */
export function scriptsRepo(db: Kysely<DB>) {
  return {
    async list(domainId: string, kind: ScriptKind, search: string): Promise<ScriptRow[]> {
      let query = db
        .selectFrom("scripts")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("kind", "=", kind)
        .where("deleted", "=", false);
      if (search !== "") query = query.where(sql<string>`lower(name)`, "like", `%${search.toLowerCase()}%`);
      return query.orderBy(sql`lower(name)`).limit(2048).execute();
    },

    async find(domainId: string, kind: ScriptKind, id: string): Promise<ScriptRow | undefined> {
      return db
        .selectFrom("scripts")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("kind", "=", kind)
        .where("id", "=", id)
        .where("deleted", "=", false)
        .executeTakeFirst();
    },

    /** The row locked for a save, so two saves make two versions, never the same one twice. */
    async lock(domainId: string, kind: ScriptKind, id: string): Promise<ScriptRow | undefined> {
      return db
        .selectFrom("scripts")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("kind", "=", kind)
        .where("id", "=", id)
        .where("deleted", "=", false)
        .forUpdate()
        .executeTakeFirst();
    },

    async versions(scriptId: string): Promise<ScriptVersionRow[]> {
      return db
        .selectFrom("script_versions")
        .selectAll()
        .where("script_id", "=", scriptId)
        .orderBy("version", "desc")
        .execute();
    },

    async version(scriptId: string, version: number): Promise<ScriptVersionRow | undefined> {
      return db
        .selectFrom("script_versions")
        .selectAll()
        .where("script_id", "=", scriptId)
        .where("version", "=", version)
        .executeTakeFirst();
    },

    async insert(row: ScriptRow): Promise<void> {
      await db
        .insertInto("scripts")
        .values({ ...row })
        .execute();
    },

    async insertVersion(row: Omit<ScriptVersionRow, "var_values"> & { var_values: string }): Promise<void> {
      await db.insertInto("script_versions").values(row).execute();
    },

    async update(
      id: string,
      changes: Pick<ScriptRow, "name" | "description" | "version" | "update_time">,
    ): Promise<void> {
      await db.updateTable("scripts").set(changes).where("id", "=", id).execute();
    },

    async markDeleted(domainId: string, kind: ScriptKind, id: string): Promise<boolean> {
      const result = await db
        .updateTable("scripts")
        .set({ deleted: true })
        .where("domain_id", "=", domainId)
        .where("kind", "=", kind)
        .where("id", "=", id)
        .where("deleted", "=", false)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
