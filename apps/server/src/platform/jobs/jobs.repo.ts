import type { JobState } from "@cellfleet/contract";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB, JobRow, NewJobRow } from "../db/schema";

/** States the dispatcher claims from, once run_at has come. */
const DUE_STATES: readonly JobState[] = ["queued", "failed"];

/** What the person-facing list filters by. */
export interface JobFilter {
  states?: JobState[];
  kinds?: string[];
  limit: number;
  offset: number;
}

/** How a failed attempt ends: retried at `runAt`, or dead when its attempts are used up. */
export interface JobFailure {
  state: "failed" | "dead";
  runAt: Date;
  error: string;
  at: Date;
}

/**
 * The jobs table. The dispatcher's functions work across domains (a node runs every domain's jobs)
 * and say so; the person-facing list and retry take the domain id first.
 */
/**
 * The insert of jobs of the platform (no domain) whose payload is worked out by the statement they
 * are part of, written only `when` it holds: an outbox event inside one statement (jobs.emitSql).
 */
export function insertJobsWhereSql(
  jobs: ReadonlyArray<{ id: string; kind: string; max_attempts: number }>,
  payload: RawBuilder<unknown>,
  when: RawBuilder<boolean>,
  now: Date,
) {
  return sql`
    insert into jobs (id, kind, domain_id, payload, sealed, state, run_at, max_attempts, dedupe_key, create_time)
    select j.id, j.kind, null, ${payload}, null, 'queued', ${now}, j.max_attempts, null, ${now}
    from unnest(${jobs.map((job) => job.id)}::text[], ${jobs.map((job) => job.kind)}::text[],
      ${jobs.map((job) => job.max_attempts)}::integer[]) as j(id, kind, max_attempts)
    where ${when}`;
}

export function jobsRepo(db: Kysely<DB>) {
  return {
    /**
     * Inserts a job of the domain (null: the platform's own); answers false (and inserts nothing)
     * when a live job holds its dedupe key.
     */
    async insertJob(domainId: string | null, job: Omit<NewJobRow, "domain_id">): Promise<boolean> {
      const result = await db
        .insertInto("jobs")
        .values({ ...job, domain_id: domainId })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /**
     * Claims up to `limit` due jobs of the given kinds for `node`: one statement, so no transaction
     * is held while they run. SKIP LOCKED lets nodes claiming at once take disjoint rows without
     * waiting; the outer state check re-reads a row another node claimed meanwhile.
     */
    async claimDueJobsAcrossDomains(
      node: string,
      kinds: readonly string[],
      now: Date,
      leaseMs: number,
      limit: number,
    ): Promise<JobRow[]> {
      if (kinds.length === 0 || limit <= 0) return [];
      const due = db
        .selectFrom("jobs")
        .select("id")
        .where("state", "in", DUE_STATES)
        .where("run_at", "<=", now)
        .where("kind", "in", kinds)
        .orderBy("run_at")
        .limit(limit)
        .forUpdate()
        .skipLocked();
      return db
        .updateTable("jobs")
        .set((eb) => ({
          state: "running",
          attempts: eb("attempts", "+", 1),
          locked_by: node,
          locked_until: new Date(now.getTime() + leaseMs),
        }))
        .where("id", "in", due)
        .where("state", "in", DUE_STATES)
        .returningAll()
        .execute();
    },

    /** When the next job of these kinds falls due after `now` (undefined: none is waiting). */
    async findNextRunAtAcrossDomains(kinds: readonly string[], now: Date): Promise<Date | undefined> {
      if (kinds.length === 0) return undefined;
      const row = await db
        .selectFrom("jobs")
        .select("run_at")
        .where("state", "in", DUE_STATES)
        .where("run_at", ">", now)
        .where("kind", "in", kinds)
        .orderBy("run_at")
        .limit(1)
        .executeTakeFirst();
      return row?.run_at;
    },

    /** Moves the lease of `node`'s running jobs on (the heartbeat of long handlers). */
    async extendLeasesAcrossDomains(node: string, ids: readonly string[], until: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable("jobs")
        .set({ locked_until: until })
        .where("id", "in", ids)
        .where("locked_by", "=", node)
        .where("state", "=", "running")
        .execute();
    },

    /** Marks `node`'s running job done and erases its sealed part; false when the node no longer held it. */
    async finishJobAcrossDomains(node: string, id: string, at: Date): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set({ state: "done", sealed: null, locked_by: null, locked_until: null, finish_time: at })
        .where("id", "=", id)
        .where("locked_by", "=", node)
        .where("state", "=", "running")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Records a failed attempt of `node`'s running job; false when the node no longer held it. */
    async failJobAcrossDomains(node: string, id: string, failure: JobFailure): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set({
          state: failure.state,
          run_at: failure.runAt,
          last_error: failure.error,
          locked_by: null,
          locked_until: null,
          finish_time: failure.state === "dead" ? failure.at : null,
        })
        .where("id", "=", id)
        .where("locked_by", "=", node)
        .where("state", "=", "running")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * The watchdog: running jobs whose lease ended (their node died or hung) become failed and due
     * now, or dead when that attempt was their last. Answers how many were returned.
     */
    async returnExpiredJobsAcrossDomains(now: Date): Promise<number> {
      const result = await db
        .updateTable("jobs")
        .set({
          state: sql<JobState>`case when attempts >= max_attempts then 'dead' else 'failed' end`,
          finish_time: sql<Date | null>`case when attempts >= max_attempts then ${now}::timestamptz end`,
          run_at: now,
          last_error: "The node running it stopped before it finished (its lease expired)",
          locked_by: null,
          locked_until: null,
        })
        .where("state", "=", "running")
        .where("locked_until", "<", now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Deletes done jobs finished before `before`; answers how many. */
    async deleteDoneJobsAcrossDomains(before: Date): Promise<number> {
      const result = await db
        .deleteFrom("jobs")
        .where("state", "=", "done")
        .where("finish_time", "<", before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** A domain's jobs (or, with `AcrossDomains`, every job), newest first. */
    async findJobs(domainId: string, filter: JobFilter): Promise<JobRow[]> {
      return findJobsWhere(db, domainId, filter);
    },

    async findJobsAcrossDomains(filter: JobFilter): Promise<JobRow[]> {
      return findJobsWhere(db, undefined, filter);
    },

    /**
     * Puts a failed or dead job of the domain back in the queue with its attempts reset; answers
     * the row, or undefined when it is not the domain's or not failed/dead.
     */
    async requeueJob(domainId: string, id: string, now: Date): Promise<JobRow | undefined> {
      return requeueWhere(db, domainId, id, now);
    },

    async requeueJobAcrossDomains(id: string, now: Date): Promise<JobRow | undefined> {
      return requeueWhere(db, undefined, id, now);
    },

    async findJob(domainId: string, id: string): Promise<JobRow | undefined> {
      return db
        .selectFrom("jobs")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    async findJobAcrossDomains(id: string): Promise<JobRow | undefined> {
      return db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
    },
  };
}

function findJobsWhere(db: Kysely<DB>, domainId: string | undefined, filter: JobFilter): Promise<JobRow[]> {
  let query = db.selectFrom("jobs").selectAll();
  if (domainId !== undefined) query = query.where("domain_id", "=", domainId);
  if (filter.states?.length) query = query.where("state", "in", filter.states);
  if (filter.kinds?.length) query = query.where("kind", "in", filter.kinds);
  return query
    .orderBy("create_time", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

function requeueWhere(
  db: Kysely<DB>,
  domainId: string | undefined,
  id: string,
  now: Date,
): Promise<JobRow | undefined> {
  let query = db
    .updateTable("jobs")
    .set({
      state: "queued",
      attempts: 0,
      run_at: now,
      finish_time: null,
      locked_by: null,
      locked_until: null,
    })
    .where("id", "=", id)
    .where("state", "in", ["failed", "dead"]);
  if (domainId !== undefined) query = query.where("domain_id", "=", domainId);
  return query.returningAll().executeTakeFirst();
}

/** The repo's type, for the parts that take it as a parameter. */
export type JobsRepo = ReturnType<typeof jobsRepo>;
