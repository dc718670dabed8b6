import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema";

/** Makes the row of a lease or schedule if it is new (due at once: its time starts at the epoch). */
async function ensureLeaseRow(db: Kysely<DB>, name: string): Promise<void> {
  await db
    .insertInto("scheduler_leases")
    .values({ name })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
}

/**
 * Takes (or renews) the lease `name` for `holder` until now + ttl, if it is free, expired or
 * already this holder's. The row is locked with FOR UPDATE SKIP LOCKED, so of N nodes asking at
 * once exactly one gets it and the others move on without waiting. Answers whether it was taken.
 */
export async function tryTakeLease(
  db: Kysely<DB>,
  name: string,
  holder: string,
  now: Date,
  ttlMs: number,
): Promise<boolean> {
  await ensureLeaseRow(db, name);
  return db.transaction().execute(async (trx) => {
    const row = await sql<{ name: string }>`
      select name from scheduler_leases
      where name = ${name} and (expires_at <= ${now} or holder = ${holder})
      for update skip locked`.execute(trx);
    if (row.rows.length === 0) return false;
    await trx
      .updateTable("scheduler_leases")
      .set({ holder, expires_at: new Date(now.getTime() + ttlMs) })
      .where("name", "=", name)
      .execute();
    return true;
  });
}

/** A job run every `intervalMs` on whichever node holds its lease. */
export interface PeriodicJobOptions {
  db: Kysely<DB>;
  name: string;
  holder: string;
  intervalMs: number;
  now: () => Date;
  run: () => Promise<void>;
  log: { error(obj: object, msg: string): void };
}

/** A started periodic job. */
export interface PeriodicJob {
  /** Runs once now if this node gets the lease (tests call it); answers whether it ran. */
  tick(): Promise<boolean>;
  stop(): Promise<void>;
}

/** Starts an in-process timer that runs the job under its lease; runs never overlap. */
export function startPeriodicJob(options: PeriodicJobOptions, autoStart = true): PeriodicJob {
  let running: Promise<boolean> | null = null;
  let stopped = false;
  const tick = (): Promise<boolean> => {
    if (running) return running;
    running = (async () => {
      try {
        // The lease outlives one interval a little, so a slow run is not taken over mid-way.
        const mine = await tryTakeLease(
          options.db,
          options.name,
          options.holder,
          options.now(),
          options.intervalMs * 2,
        );
        if (!mine || stopped) return false;
        await options.run();
        return true;
      } catch (error) {
        options.log.error({ err: error, job: options.name }, "periodic job failed");
        return false;
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = autoStart ? setInterval(() => void tick(), options.intervalMs) : null;
  timer?.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

/**
 * Claims a due schedule: when the row `name` is due (its time has come, or it is new), moves its
 * time to now + intervalMs and answers true. One conditional UPDATE, so of N nodes asking at once
 * exactly one wins, and a restarted node does not wait out another's lease: the time is the
 * schedule's, not a holder's. Call it in the transaction that enqueues the work, so both or neither happen.
 */
export async function claimDueSchedule(
  db: Kysely<DB>,
  name: string,
  now: Date,
  intervalMs: number,
): Promise<boolean> {
  await ensureLeaseRow(db, name);
  const result = await db
    .updateTable("scheduler_leases")
    .set({ holder: "schedule", expires_at: new Date(now.getTime() + intervalMs) })
    .where("name", "=", name)
    .where("expires_at", "<=", now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
