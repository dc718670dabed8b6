import type { ActionStatus, ExecutionCounts, TagScope } from "@cellfleet/contract";
import { type Insertable, type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from "kysely";
import { type DB, toJsonb } from "../../platform/db/schema";
import type { CommandsTable, CommandTypesTable } from "../../platform/db/schema-actions";
import { tagScopeCondition } from "../../platform/db/tag-scope";

/** A stored command. */
export type CommandRow = Selectable<CommandsTable>;
/** A stored custom command type. */
export type CommandTypeRow = Selectable<CommandTypesTable>;

/** What a list of commands is narrowed by. */
export interface CommandFilter {
  statuses?: readonly ActionStatus[];
  types?: readonly string[];
  /** The viewer's tag scope (ADR 041): only commands wholly about routers within it. */
  tagScope?: TagScope;
}

/**
 * A command lies within a tag scope (ADR 041) when none of its routers lies outside it: a person
 * limited to tags sees, approves and cancels only commands wholly about their routers. A command
 * keeps an execution per router from its creation; one with none left had all its routers deleted,
 * which can no longer be told to be theirs, so it is not (as a notification naming a deleted router).
 */
function commandWithinTagScope(commandId: string, tagScope: TagScope): RawBuilder<SqlBool> {
  if (tagScope.length === 0) return sql<SqlBool>`true`;
  return sql<SqlBool>`(exists (select 1 from command_executions e0 where e0.command_id = ${sql.ref(commandId)})
    and not exists (select 1 from command_executions e
    join devices d on d.id = e.device_id and d.domain_id = e.domain_id
    where e.command_id = ${sql.ref(commandId)} and not ${tagScopeCondition("d.tags", tagScope)}))`;
}

/** A router a command can go to. */
export interface TargetDevice {
  id: string;
  ident: string;
  tags: string[];
  last_contact: Date | null;
  /** Its MQTT connection now, as the gateway saw it; null: not known (ADR 032). */
  connected: boolean | null;
  /** What a template's system variables read. */
  model: string | null;
  serial: string | null;
  firmware: string | null;
  description: string;
  /** The command types its hello named, comma-separated; null: all. */
  command_types: string | null;
}

/** Commands, their targets and the domain's custom types (Kysely only). */
export function commandsRepo(db: Kysely<DB>) {
  return {
    async insertCommand(domainId: string, row: Omit<Insertable<CommandsTable>, "domain_id">): Promise<void> {
      await db
        .insertInto("commands")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    /** Of these commands of the domain, those lying within the tag scope (ADR 041). */
    async findCommandIdsWithinTagScope(
      domainId: string,
      ids: readonly string[],
      tagScope: TagScope,
    ): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("commands")
        .select("id")
        .where("domain_id", "=", domainId)
        .where("id", "in", ids)
        .where(commandWithinTagScope("commands.id", tagScope))
        .execute();
      return rows.map((row) => row.id);
    },

    /** The command, when it lies within the tag scope (none: the whole domain's, ADR 041). */
    async findCommand(
      domainId: string,
      id: string,
      tagScope: TagScope = [],
    ): Promise<CommandRow | undefined> {
      return db
        .selectFrom("commands")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .$if(tagScope.length > 0, (q) => q.where(commandWithinTagScope("commands.id", tagScope)))
        .executeTakeFirst();
    },

    /** Locks the command row, so two people deciding at once see each other's decision. */
    async lockCommand(
      domainId: string,
      id: string,
      tagScope: TagScope = [],
    ): Promise<CommandRow | undefined> {
      return db
        .selectFrom("commands")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .$if(tagScope.length > 0, (q) => q.where(commandWithinTagScope("commands.id", tagScope)))
        .forUpdate()
        .executeTakeFirst();
    },

    /** Locks commands' rows in id order (so concurrent writers never deadlock) and answers their counts. */
    async lockCommandCounts(
      domainId: string,
      ids: readonly string[],
    ): Promise<Array<{ id: string; counts: ExecutionCounts }>> {
      if (ids.length === 0) return [];
      return db
        .selectFrom("commands")
        .select(["id", "counts"])
        .where("domain_id", "=", domainId)
        .where("id", "in", ids)
        .orderBy("id")
        .forUpdate()
        .execute();
    },

    async findCommands(
      domainId: string,
      filter: CommandFilter,
      limit: number,
      offset: number,
    ): Promise<CommandRow[]> {
      let query = db
        .selectFrom("commands")
        .selectAll()
        .where("domain_id", "=", domainId)
        .$if(Boolean(filter.tagScope?.length), (q) =>
          q.where(commandWithinTagScope("commands.id", filter.tagScope ?? [])),
        );
      if (filter.statuses && filter.statuses.length > 0) query = query.where("status", "in", filter.statuses);
      if (filter.types && filter.types.length > 0) query = query.where("type", "in", filter.types);
      return query.orderBy("create_time", "desc").orderBy("id").limit(limit).offset(offset).execute();
    },

    /**
     * The page after the command `after` (an id) in the list's order, newest first and ties by id:
     * an export walks by keyset, not offsets. The cursor's time is read back from its row, since a
     * JS Date would cut the stored microseconds.
     */
    async findCommandsAfter(
      domainId: string,
      filter: CommandFilter,
      after: string | null,
      limit: number,
    ): Promise<CommandRow[]> {
      let query = db
        .selectFrom("commands as c")
        .selectAll()
        .where("c.domain_id", "=", domainId)
        .$if(Boolean(filter.tagScope?.length), (q) =>
          q.where(commandWithinTagScope("c.id", filter.tagScope ?? [])),
        );
      if (filter.statuses && filter.statuses.length > 0)
        query = query.where("c.status", "in", filter.statuses);
      if (filter.types && filter.types.length > 0) query = query.where("c.type", "in", filter.types);
      if (after !== null) {
        const cursor = sql`(select k.create_time from commands k where k.domain_id = ${domainId} and k.id = ${after})`;
        query = query.where(
          sql<boolean>`(c.create_time < ${cursor} or (c.create_time = ${cursor} and c.id > ${after}))`,
        );
      }
      return query.orderBy("c.create_time", "desc").orderBy("c.id").limit(limit).execute();
    },

    async updateCommand(
      domainId: string,
      id: string,
      changes: Partial<Pick<CommandRow, "approver_id" | "approver_name" | "declined_reason" | "update_time">>,
    ): Promise<void> {
      await db
        .updateTable("commands")
        .set(changes)
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /** Writes a command's counts and the status worked out from them. */
    async setCommandCounts(
      domainId: string,
      id: string,
      counts: ExecutionCounts,
      status: ActionStatus,
      now: Date,
    ): Promise<void> {
      await db
        .updateTable("commands")
        .set({ counts: toJsonb(counts), status, update_time: now })
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /** The routers of the domain named by id, carrying any of the tags, or all of them. */
    /** The router a domain's file belongs to (null: a common file); undefined: no such file. */
    async findFileRouter(domainId: string, fileId: string): Promise<string | null | undefined> {
      const row = await db
        .selectFrom("files")
        .select("device_id")
        .where("domain_id", "=", domainId)
        .where("id", "=", fileId)
        .executeTakeFirst();
      return row?.device_id;
    },

    async findTargetDevices(
      domainId: string,
      targets: { devices: readonly string[]; tags: readonly string[]; all: boolean },
      tagScope: TagScope,
    ): Promise<TargetDevice[]> {
      let query = db
        .selectFrom("devices")
        .select([
          "id",
          "ident",
          "tags",
          "last_contact",
          "connected",
          "model",
          "serial",
          "firmware",
          "description",
          "command_types",
        ])
        .where("domain_id", "=", domainId)
        // "All" is all of the caller's routers; a named one outside their tags is not found (ADR 041).
        .$if(tagScope.length > 0, (q) => q.where(tagScopeCondition("tags", tagScope)));
      if (!targets.all) {
        query = query.where((eb) => {
          const ors = [];
          if (targets.devices.length > 0) ors.push(eb("id", "in", targets.devices));
          if (targets.tags.length > 0) ors.push(sql<boolean>`tags ?| ${sql.val(targets.tags)}::text[]`);
          return ors.length > 0 ? eb.or(ors) : sql<boolean>`false`;
        });
      }
      return query.orderBy("ident").execute();
    },

    /** The types of the domain's commands, most used first: the quick list. */
    async findMostUsedTypes(domainId: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom("commands")
        .select(["type", (eb) => eb.fn.countAll<string>().as("uses")])
        .where("domain_id", "=", domainId)
        .groupBy("type")
        .orderBy("uses", "desc")
        .orderBy("type")
        .limit(limit)
        .execute();
      return rows.map((row) => row.type);
    },

    /** A server-raised event about a person (no router, no seq): 'command needing approval'. */
    async insertPersonEvent(
      domainId: string,
      row: {
        kind: string;
        level: "info" | "warning";
        message: string;
        details: Record<string, unknown>;
        author_id: string;
        create_time: Date;
        /** Its kind is switched off in the domain's event types: stored read for everyone. */
        is_quiet?: boolean;
      },
    ): Promise<void> {
      const quiet = row.is_quiet === true;
      await db
        .insertInto("events")
        .values({
          ...row,
          domain_id: domainId,
          device_id: null,
          details: toJsonb(row.details),
          is_quiet: quiet,
          is_read: quiet,
        })
        .execute();
    },

    async findCommandTypes(domainId: string): Promise<CommandTypeRow[]> {
      return db
        .selectFrom("command_types")
        .selectAll()
        .where("domain_id", "=", domainId)
        .orderBy("type")
        .execute();
    },

    async findCommandTypeByName(domainId: string, type: string): Promise<CommandTypeRow | undefined> {
      return db
        .selectFrom("command_types")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where(sql<string>`lower(type)`, "=", type.toLowerCase())
        .executeTakeFirst();
    },

    async insertCommandType(
      domainId: string,
      row: Omit<Insertable<CommandTypesTable>, "domain_id">,
    ): Promise<void> {
      await db
        .insertInto("command_types")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    async deleteCommandType(domainId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("command_types")
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

/** The commands repo's type. */
export type CommandsRepo = ReturnType<typeof commandsRepo>;
