import type { ExecutionStatus, TagScope } from "@cellfleet/contract";
import { type Insertable, type Kysely, type Selectable, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { CommandExecutionsTable } from "../../platform/db/schema-actions";
import { tagScopeCondition } from "../../platform/db/tag-scope";

/** A stored execution. */
export type ExecutionRow = Selectable<CommandExecutionsTable>;
/**
 * An execution with its router's ident, its command's type and its report file (the file its
 * upload slot ended in, also when a repeated backup was noted on an earlier file): the DTO's rows.
 */
export type ExecutionDtoRow = ExecutionRow & { ident: string; type: string; file_id: string | null };

/** An execution at the head of its router's queue, with what the router is sent. */
export interface HeadRow {
  id: string;
  domain_id: string;
  command_id: string;
  device_id: string;
  ident: string;
  /** The command types the router's hello named, comma-separated; null when it named none (all). */
  command_types: string | null;
  status: ExecutionStatus;
  attempts: number;
  last_publish_time: Date | null;
  wire_type: string;
  args: Record<string, string | number | boolean | null>;
  file_id: string | null;
  run_until: Date | null;
}

/** What a list of executions is narrowed by. */
export interface ExecutionFilter {
  commandId?: string;
  deviceId?: string;
  statuses?: readonly ExecutionStatus[];
  /** The viewer's tag scope (ADR 041): only executions on routers within it. */
  tagScope?: TagScope;
}

/** The changes a move writes besides the status. */
export type ExecutionChanges = Partial<Pick<ExecutionRow, "code" | "output" | "progress" | "finish_time">>;

const ROWS_PER_INSERT = 2000;

function executionsSelect(db: Kysely<DB>) {
  return db
    .selectFrom("command_executions as e")
    .innerJoin("devices as d", "d.id", "e.device_id")
    .innerJoin("commands as c", "c.id", "e.command_id")
    .selectAll("e")
    .select(["d.ident", "c.type"])
    .select((eb) =>
      eb
        .selectFrom("file_transfers as t")
        .select("t.file_id")
        .whereRef("t.execution_id", "=", "e.id")
        .where("t.file_id", "is not", null)
        .orderBy("t.finish_time", "desc")
        .limit(1)
        .as("file_id"),
    );
}

/** Executions of commands, one per router (Kysely only). */
export function executionsRepo(db: Kysely<DB>) {
  return {
    async insertExecutions(
      domainId: string,
      rows: ReadonlyArray<Omit<Insertable<CommandExecutionsTable>, "domain_id">>,
    ): Promise<void> {
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        const chunk = rows
          .slice(start, start + ROWS_PER_INSERT)
          .map((row) => ({ ...row, domain_id: domainId }));
        await db.insertInto("command_executions").values(chunk).execute();
      }
    },

    async findExecutions(
      domainId: string,
      filter: ExecutionFilter,
      limit: number,
      offset: number,
    ): Promise<ExecutionDtoRow[]> {
      let query = executionsSelect(db).where("e.domain_id", "=", domainId);
      if (filter.commandId) query = query.where("e.command_id", "=", filter.commandId);
      if (filter.deviceId) query = query.where("e.device_id", "=", filter.deviceId);
      if (filter.statuses && filter.statuses.length > 0)
        query = query.where("e.status", "in", filter.statuses);
      if (filter.tagScope && filter.tagScope.length > 0)
        query = query.where(tagScopeCondition("d.tags", filter.tagScope));
      return query.orderBy("e.create_time", "desc").orderBy("d.ident").limit(limit).offset(offset).execute();
    },

    async findExecutionDtos(domainId: string, ids: readonly string[]): Promise<ExecutionDtoRow[]> {
      if (ids.length === 0) return [];
      return executionsSelect(db).where("e.domain_id", "=", domainId).where("e.id", "in", ids).execute();
    },

    async findExecution(domainId: string, id: string): Promise<ExecutionDtoRow | undefined> {
      return executionsSelect(db)
        .where("e.domain_id", "=", domainId)
        .where("e.id", "=", id)
        .executeTakeFirst();
    },

    /** Counts of one command's executions by status. */
    async countByStatus(
      domainId: string,
      commandId: string,
    ): Promise<Array<{ status: ExecutionStatus; n: number }>> {
      const rows = await db
        .selectFrom("command_executions")
        .select(["status", (eb) => eb.fn.countAll<string>().as("n")])
        .where("domain_id", "=", domainId)
        .where("command_id", "=", commandId)
        .groupBy("status")
        .execute();
      return rows.map((row) => ({ status: row.status, n: Number(row.n) }));
    },

    /**
     * Moves executions that are in one of `from` to `to`: of a command, or by id. Answers the moved
     * rows (id, command, router). The `from` list is the state machine's (`statusesMovedBy`).
     */
    async moveExecutions(
      domainId: string,
      where: { commandId?: string; ids?: readonly string[]; deviceIds?: readonly string[] },
      from: readonly ExecutionStatus[],
      to: ExecutionStatus,
      now: Date,
      changes: ExecutionChanges = {},
    ): Promise<Array<{ id: string; command_id: string; device_id: string }>> {
      if (from.length === 0 || (where.ids !== undefined && where.ids.length === 0)) return [];
      let query = db
        .updateTable("command_executions")
        .set({ ...changes, status: to, update_time: now })
        .where("domain_id", "=", domainId)
        .where("status", "in", from);
      if (where.commandId) query = query.where("command_id", "=", where.commandId);
      if (where.ids) query = query.where("id", "in", where.ids);
      if (where.deviceIds) query = query.where("device_id", "in", where.deviceIds);
      return query.returning(["id", "command_id", "device_id"]).execute();
    },

    /** The devices that have executions of these statuses (whose queues may move on). */
    async findDevicesWithStatus(
      domainId: string,
      deviceIds: readonly string[],
      statuses: readonly ExecutionStatus[],
    ): Promise<string[]> {
      if (deviceIds.length === 0) return [];
      const rows = await db
        .selectFrom("command_executions")
        .select("device_id")
        .distinct()
        .where("domain_id", "=", domainId)
        .where("device_id", "in", deviceIds)
        .where("status", "in", statuses)
        .execute();
      return rows.map((row) => row.device_id);
    },

    /**
     * Each router's head: its oldest execution that is queued, sent or in progress (one at a time,
     * in order). Routers are delivered to by any domain's command, so this reads across domains.
     */
    async findHeadsAcrossDomains(deviceIds: readonly string[]): Promise<HeadRow[]> {
      if (deviceIds.length === 0) return [];
      const result = await sql<HeadRow>`
        select distinct on (e.device_id) e.id, e.domain_id, e.command_id, e.device_id, d.ident, d.command_types, e.status,
          e.attempts, e.last_publish_time, c.wire_type,
          case when e.rendered is null then c.args else c.args || jsonb_build_object('script', e.rendered) end as args,
          c.file_id, c.run_until
        from command_executions e
        join devices d on d.id = e.device_id
        join commands c on c.id = e.command_id
        where e.device_id in (${sql.join(deviceIds)})
          and e.status in ('queued', 'sent', 'in_progress')
        order by e.device_id, e.position`.execute(db);
      return result.rows;
    },

    /**
     * Writes moves the state machine already worked out, in one statement: each row only if it is
     * still in the status the move starts from (`from`), so a concurrent move is never overwritten.
     */
    async applyMovesAcrossDomains(
      moves: ReadonlyArray<{
        id: string;
        from: ExecutionStatus;
        to: ExecutionStatus;
        code: number | null;
        output: string;
        progress: number | null;
        isFinal: boolean;
      }>,
      now: Date,
    ): Promise<string[]> {
      if (moves.length === 0) return [];
      const col = <K extends keyof (typeof moves)[number]>(key: K) => moves.map((move) => move[key]);
      const result = await sql<{ id: string }>`
        update command_executions e set status = v.to_status, code = v.code, output = v.output,
          progress = v.progress, update_time = ${now},
          finish_time = case when v.is_final then ${now}::timestamptz else e.finish_time end
        from unnest(${col("id")}::text[], ${col("from")}::text[], ${col("to")}::text[], ${col("code")}::int[],
          ${col("output")}::text[], ${col("progress")}::real[], ${col("isFinal")}::bool[])
          as v(id, from_status, to_status, code, output, progress, is_final)
        where e.id = v.id and e.status = v.from_status
        returning e.id`.execute(db);
      return result.rows.map((row) => row.id);
    },

    /**
     * Counts a publish of executions to their routers, each only if its last publish is still the
     * one the pump read (`seen`): of two pumps of one router at once only one publishes its head.
     * Answers the ids claimed.
     */
    async claimPublishAcrossDomains(
      heads: ReadonlyArray<{ id: string; seen: Date | null }>,
      now: Date,
    ): Promise<string[]> {
      if (heads.length === 0) return [];
      const result = await sql<{ id: string }>`
        update command_executions e set attempts = e.attempts + 1, last_publish_time = ${now}
        from unnest(${heads.map((head) => head.id)}::text[],
          ${heads.map((head) => head.seen?.toISOString() ?? null)}::text[]) as v(id, seen)
        where e.id = v.id and e.last_publish_time is not distinct from v.seen::timestamptz
        returning e.id`.execute(db);
      return result.rows.map((row) => row.id);
    },

    /** Executions of these ids on these routers (a router may speak only of its own). */
    async findOwnExecutionsAcrossDomains(
      pairs: ReadonlyArray<{ id: string; device_id: string }>,
    ): Promise<ExecutionRow[]> {
      if (pairs.length === 0) return [];
      const rows = await db
        .selectFrom("command_executions")
        .selectAll()
        .where(
          "id",
          "in",
          pairs.map((pair) => pair.id),
        )
        .forUpdate()
        .execute();
      const owner = new Map(pairs.map((pair) => [`${pair.id}\u0000${pair.device_id}`, true]));
      return rows.filter((row) => owner.has(`${row.id}\u0000${row.device_id}`));
    },

    /**
     * Executions whose time came, across domains (the watchdog): delayed ones due, unsent ones past
     * run-until, ones sent or running without word since `stuckBefore`. At most `limit` of each.
     */
    async findWatchdogWorkAcrossDomains(
      now: Date,
      stuckBefore: Date,
      limit: number,
    ): Promise<
      Array<{ id: string; domain_id: string; device_id: string; status: ExecutionStatus; why: string }>
    > {
      const result = await sql<{
        id: string;
        domain_id: string;
        device_id: string;
        status: ExecutionStatus;
        why: string;
      }>`
        (select e.id, e.domain_id, e.device_id, e.status, 'expire' as why
          from command_executions e join commands c on c.id = e.command_id
          where e.status in ('unapproved', 'delayed', 'queued') and c.run_until is not null and c.run_until <= ${now}
          limit ${limit})
        union all
        (select e.id, e.domain_id, e.device_id, e.status, 'due' as why
          from command_executions e join commands c on c.id = e.command_id
          where e.status = 'delayed' and (c.delayed_until is null or c.delayed_until <= ${now})
            and (c.run_until is null or c.run_until > ${now})
          limit ${limit})
        union all
        (select e.id, e.domain_id, e.device_id, e.status, 'watchdog' as why
          from command_executions e
          where e.status in ('sent', 'in_progress') and e.update_time <= ${stuckBefore}
          limit ${limit})`.execute(db);
      return result.rows;
    },

    /** Routers with a queued execution published before `before` and not acknowledged: the pump's retry. */
    async findUnacknowledgedDevicesAcrossDomains(before: Date, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom("command_executions")
        .select("device_id")
        .distinct()
        .where("status", "=", "queued")
        .where("last_publish_time", "<=", before)
        .limit(limit)
        .execute();
      return rows.map((row) => row.device_id);
    },
  };
}

/** The executions repo's type. */
export type ExecutionsRepo = ReturnType<typeof executionsRepo>;
