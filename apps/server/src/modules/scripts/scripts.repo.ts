import type { ScriptKind } from "@cellfleet/contract";
import { type Kysely, type Selectable, sql } from "kysely";
import { likePattern } from "../../platform/db/like";
import type { DB } from "../../platform/db/schema";
import type { ScriptsTable, ScriptVersionsTable } from "../../platform/db/schema-actions";

export type ScriptRow = Selectable<ScriptsTable>;
export type ScriptVersionRow = Selectable<ScriptVersionsTable>;

/** Saved scripts and templates, one domain at a time; a deleted one is kept for the commands that used it. */
export function scriptsRepo(db: Kysely<DB>) {
  /** A script or template of the domain that is not deleted. */
  const live = (domainId: string, kind: ScriptKind, id: string) =>
    db
      .selectFrom("scripts")
      .selectAll()
      .where("domain_id", "=", domainId)
      .where("kind", "=", kind)
      .where("id", "=", id)
      .where("deleted", "=", false);

  return {
    async list(domainId: string, kind: ScriptKind, search: string): Promise<ScriptRow[]> {
      let query = db
        .selectFrom("scripts")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("kind", "=", kind)
        .where("deleted", "=", false);
      if (search !== "")
        query = query.where(sql<string>`lower(name)`, "like", likePattern(search.toLowerCase()));
      return query.orderBy(sql`lower(name)`).limit(2048).execute();
    },

    async find(domainId: string, kind: ScriptKind, id: string): Promise<ScriptRow | undefined> {
      return live(domainId, kind, id).executeTakeFirst();
    },

    /** The row locked for a save, so two saves make two versions, never the same one twice. */
    async lock(domainId: string, kind: ScriptKind, id: string): Promise<ScriptRow | undefined> {
      return live(domainId, kind, id).forUpdate().executeTakeFirst();
    },

    async versions(domainId: string, scriptId: string): Promise<ScriptVersionRow[]> {
      return db
        .selectFrom("script_versions")
        .innerJoin("scripts", "scripts.id", "script_versions.script_id")
        .selectAll("script_versions")
        .where("scripts.domain_id", "=", domainId)
        .where("script_versions.script_id", "=", scriptId)
        .orderBy("script_versions.version", "desc")
        .execute();
    },

    async version(
      domainId: string,
      scriptId: string,
      version: number,
    ): Promise<ScriptVersionRow | undefined> {
      return db
        .selectFrom("script_versions")
        .innerJoin("scripts", "scripts.id", "script_versions.script_id")
        .selectAll("script_versions")
        .where("scripts.domain_id", "=", domainId)
        .where("script_versions.script_id", "=", scriptId)
        .where("script_versions.version", "=", version)
        .executeTakeFirst();
    },

    async insert(domainId: string, row: Omit<ScriptRow, "domain_id">): Promise<void> {
      await db
        .insertInto("scripts")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    /** A version of a script of this domain (a script of another domain gets none: an error). */
    async insertVersion(
      domainId: string,
      row: Omit<ScriptVersionRow, "var_values"> & { var_values: string },
    ): Promise<void> {
      // One statement: the version is written only from the domain's own script row.
      const result = await db
        .insertInto("script_versions")
        .columns(["script_id", "version", "text", "var_values", "author_id", "author_name", "create_time"])
        .expression(
          db
            .selectFrom("scripts")
            .select([
              "scripts.id",
              sql<number>`${row.version}::integer`.as("version"),
              sql<string>`${row.text}::text`.as("text"),
              sql<string>`${row.var_values}::jsonb`.as("var_values"),
              sql<string>`${row.author_id}::text`.as("author_id"),
              sql<string>`${row.author_name}::text`.as("author_name"),
              sql<Date>`${row.create_time}::timestamptz`.as("create_time"),
            ])
            .where("scripts.domain_id", "=", domainId)
            .where("scripts.id", "=", row.script_id),
        )
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0)
        throw new Error(`Script ${row.script_id} is not of domain ${domainId}`);
    },

    async update(
      domainId: string,
      id: string,
      changes: Pick<ScriptRow, "name" | "description" | "version" | "update_time">,
    ): Promise<void> {
      await db
        .updateTable("scripts")
        .set(changes)
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
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
