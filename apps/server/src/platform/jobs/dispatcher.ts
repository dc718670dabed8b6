import type { Kysely } from "kysely";
import type { Bus } from "../bus/bus";
import type { DB, JobRow } from "../db/schema";
import { claimDueSchedule, type PeriodicJob, startPeriodicJob } from "../scheduler/lease";
import type { PlatformSecrets } from "../secrets";
import { computeRetryDelayMs } from "./backoff";
import { JOBS_WAKE_TOPIC, type Jobs, type PeriodicJobKind, RetryLaterError } from "./jobs";
import { jobsRepo } from "./jobs.repo";

/** Timings and limits of a dispatcher; every one has a default fit for production. */
export interface DispatcherTimings {
  /** Handlers run at once on this node (default 8). */
  concurrency: number;
  /** Looks for due jobs this often even without a wake-up (default 1 s). */
  pollMs: number;
  /** A claimed job is this node's until now + lease; heartbeats renew it (default 30 s). */
  leaseMs: number;
  /** How often the watchdog returns jobs whose lease ended (default 10 s). */
  watchdogMs: number;
  /** Done jobs are deleted this long after they finished (default 7 days). */
  keepDoneMs: number;
  /**
   * How often periodic kinds (`jobs.every`) are checked for being due (default 10 s, so the 20 s
   * status sweep runs every 20 to 30 s, as spec section 4 asks, and the 15 s delivery watchdog as often).
   */
  scheduleTickMs: number;
}

export const DEFAULT_DISPATCHER_TIMINGS: DispatcherTimings = {
  concurrency: 8,
  pollMs: 1000,
  leaseMs: 30_000,
  watchdogMs: 10_000,
  keepDoneMs: 7 * 24 * 3600_000,
  scheduleTickMs: 10_000,
};

/** What a dispatcher is built from. */
export interface DispatcherDeps {
  db: Kysely<DB>;
  bus: Bus;
  jobs: Jobs;
  secrets: PlatformSecrets;
  /** This node's id, written in locked_by. */
  node: string;
  now: () => Date;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  timings?: Partial<DispatcherTimings>;
  /** Jitter's random source (tests pin it). */
  random?: () => number;
}

/** Runs the registered handlers of due jobs on this node. */
export interface Dispatcher {
  /** Starts polling, listening for wake-ups, the heartbeat, the watchdog and the cleanup. */
  start(): void;
  /** Stops claiming and waits for the handlers running now to end (drains). */
  stop(): Promise<void>;
  /** Runs due jobs until none is due and none runs (tests call it instead of waiting for a poll). */
  runUntilIdle(): Promise<void>;
  /** Returns expired leases to the queue now (what the watchdog does periodically). */
  returnExpired(): Promise<number>;
  /** Deletes done jobs older than keepDoneMs now (what the hourly cleanup does); answers how many. */
  deleteOldDone(): Promise<number>;
  /** Enqueues the periodic kinds that are due (what the schedule tick does); answers the kinds enqueued. */
  runSchedules(): Promise<string[]>;
  /** Jobs running on this node now. */
  runningCount(): number;
}

class JobTimeoutError extends Error {
  override name = "JobTimeoutError";
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

/** Builds a dispatcher; nothing runs until start() or runUntilIdle(). */
export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const timings = { ...DEFAULT_DISPATCHER_TIMINGS, ...deps.timings };
  const random = deps.random ?? Math.random;
  const repo = jobsRepo(deps.db);
  const active = new Map<string, { run: Promise<void>; controller: AbortController }>();
  let isStopped = false;
  let pumping: Promise<void> | null = null;
  let isPumpAsked = false;
  const timers: NodeJS.Timeout[] = [];
  const periodic: PeriodicJob[] = [];
  let unsubscribe: (() => void) | null = null;
  // Started with start(): only then does the dispatcher wake itself for jobs due before the next poll.
  let isRunning = false;
  let dueTimer: NodeJS.Timeout | null = null;

  async function settle(row: JobRow, error: unknown): Promise<boolean> {
    const definition = deps.jobs.definition(row.kind);
    const now = deps.now();
    const isLast = row.attempts >= row.max_attempts;
    const delay =
      error instanceof RetryLaterError
        ? Math.max(0, error.delayMs)
        : definition
          ? computeRetryDelayMs(definition.backoff, row.attempts, random)
          : 0;
    return repo.failJobAcrossDomains(deps.node, row.id, {
      state: isLast ? "dead" : "failed",
      runAt: new Date(now.getTime() + delay),
      error: describeError(error),
      at: now,
    });
  }

  async function runJob(row: JobRow, controller: AbortController): Promise<void> {
    const definition = deps.jobs.definition(row.kind);
    let timer: NodeJS.Timeout | undefined;
    let isHeld: boolean;
    try {
      try {
        if (!definition) throw new Error(`No handler is registered for job kind ${row.kind}`);
        const secret = row.sealed === null ? null : deps.secrets.open("job-payload", row.sealed);
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            controller.abort();
            reject(new JobTimeoutError(`The attempt ran longer than ${definition.timeoutMs} ms`));
          }, definition.timeoutMs);
        });
        await Promise.race([
          definition.handle({
            id: row.id,
            kind: row.kind,
            domainId: row.domain_id,
            payload: row.payload,
            secret,
            attempt: row.attempts,
            signal: controller.signal,
          }),
          timeout,
        ]);
      } finally {
        clearTimeout(timer);
      }
      isHeld = await repo.finishJobAcrossDomains(deps.node, row.id, deps.now());
    } catch (error) {
      isHeld = await settle(row, error);
      if (isHeld)
        deps.log.warn({ err: error, job: row.id, kind: row.kind, attempt: row.attempts }, "job failed");
    }
    // Its lease ran out mid-run and the watchdog gave it back; whoever holds it now decides.
    if (!isHeld) deps.log.warn({ job: row.id, kind: row.kind }, "job finished after its lease ended");
  }

  function launch(row: JobRow): void {
    const controller = new AbortController();
    const run = runJob(row, controller)
      .catch((error: unknown) => {
        // The database refused the outcome: the lease will end and the watchdog returns the job.
        deps.log.error({ err: error, job: row.id }, "job outcome not saved");
      })
      .finally(() => {
        // Only its own entry: after a lost lease this node may have claimed the job again meanwhile.
        if (active.get(row.id)?.run === run) active.delete(row.id);
        if (!isStopped) void pump();
      });
    active.set(row.id, { run, controller });
  }

  /**
   * With free slots and nothing due, wakes the pump when the next job falls due if that is sooner
   * than the next poll: a job paced to run at a set time (a rate-limited message) then starts at
   * that time, not up to a poll later together with the ones due after it.
   */
  async function wakeForNextDue(): Promise<void> {
    const now = deps.now();
    const next = await repo.findNextRunAtAcrossDomains(deps.jobs.kinds(), now);
    if (next === undefined || isStopped) return;
    const wait = next.getTime() - now.getTime();
    if (wait >= timings.pollMs) return;
    if (dueTimer) clearTimeout(dueTimer);
    dueTimer = setTimeout(
      () => {
        dueTimer = null;
        void pump();
      },
      Math.max(wait, 1),
    );
    dueTimer.unref();
  }

  async function claimWhileFree(): Promise<void> {
    try {
      for (;;) {
        let hasRoom = false;
        do {
          isPumpAsked = false;
          while (!isStopped && active.size < timings.concurrency) {
            const free = timings.concurrency - active.size;
            const claimed = await repo.claimDueJobsAcrossDomains(
              deps.node,
              deps.jobs.kinds(),
              deps.now(),
              timings.leaseMs,
              free,
            );
            for (const row of claimed) launch(row);
            hasRoom = claimed.length < free;
            if (hasRoom) break;
          }
        } while (isPumpAsked && !isStopped);
        if (!isRunning || !hasRoom || isStopped) return;
        await wakeForNextDue();
        // A wake-up that came while the next due time was read must not wait for the poll.
        if (!isPumpAsked || isStopped) return;
      }
    } catch (error) {
      deps.log.error({ err: error }, "jobs not claimed");
    }
  }

  function pump(): Promise<void> {
    if (pumping) {
      isPumpAsked = true;
      return pumping;
    }
    // The reset goes in a `.finally` of the assigned promise: when the slots are full the body ends
    // without awaiting, and a reset inside it would run before the assignment and stick.
    pumping = claimWhileFree().finally(() => {
      pumping = null;
    });
    return pumping;
  }

  async function heartbeat(): Promise<void> {
    if (active.size === 0) return;
    try {
      const until = new Date(deps.now().getTime() + timings.leaseMs);
      await repo.extendLeasesAcrossDomains(deps.node, [...active.keys()], until);
    } catch (error) {
      deps.log.error({ err: error }, "job leases not renewed");
    }
  }

  async function returnExpired(): Promise<number> {
    const returned = await repo.returnExpiredJobsAcrossDomains(deps.now());
    if (returned > 0) {
      deps.log.warn({ returned }, "jobs of a stopped node returned to the queue");
      if (!isStopped) void pump();
    }
    return returned;
  }

  async function runSchedules(): Promise<string[]> {
    const enqueued: string[] = [];
    for (const { kind, intervalMs } of deps.jobs.schedules()) {
      try {
        const isDue = await deps.jobs.transaction(async (trx) => {
          if (!(await claimDueSchedule(trx, `every:${kind}`, deps.now(), intervalMs))) return false;
          // The dedupe key keeps one live job per kind: a slow run is never joined by the next.
          await deps.jobs.enqueue<PeriodicJobKind>(trx, { kind, dedupeKey: `every:${kind}` });
          return true;
        });
        if (isDue) enqueued.push(kind);
      } catch (error) {
        deps.log.error({ err: error, kind }, "periodic job not enqueued");
      }
    }
    return enqueued;
  }

  function deleteOldDone(): Promise<number> {
    return repo.deleteDoneJobsAcrossDomains(new Date(deps.now().getTime() - timings.keepDoneMs));
  }

  return {
    start() {
      isStopped = false;
      isRunning = true;
      unsubscribe = deps.bus.subscribe(JOBS_WAKE_TOPIC, () => void pump());
      const poll = setInterval(() => void pump(), timings.pollMs);
      const beat = setInterval(() => void heartbeat(), Math.max(timings.leaseMs / 3, 10));
      const schedule = setInterval(() => void runSchedules(), timings.scheduleTickMs);
      poll.unref();
      beat.unref();
      schedule.unref();
      timers.push(poll, beat, schedule);
      const lease = { db: deps.db, holder: deps.node, now: deps.now, log: deps.log };
      periodic.push(
        startPeriodicJob({
          ...lease,
          name: "jobs.watchdog",
          intervalMs: timings.watchdogMs,
          run: async () => void (await returnExpired()),
        }),
        startPeriodicJob({
          ...lease,
          name: "jobs.cleanup",
          intervalMs: 3600_000,
          run: async () =>
            void (await repo.deleteDoneJobsAcrossDomains(
              new Date(deps.now().getTime() - timings.keepDoneMs),
            )),
        }),
      );
      void pump();
    },
    async stop() {
      isStopped = true;
      unsubscribe?.();
      unsubscribe = null;
      isRunning = false;
      if (dueTimer) clearTimeout(dueTimer);
      dueTimer = null;
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.all(periodic.splice(0).map((job) => job.stop()));
      await pumping;
      // Drain: running handlers end (or time out) and record their outcome before the node goes.
      await Promise.all([...active.values()].map((entry) => entry.run));
    },
    async runUntilIdle() {
      for (;;) {
        await pump();
        if (active.size === 0) return;
        await Promise.race([...active.values()].map((entry) => entry.run));
      }
    },
    returnExpired,
    deleteOldDone,
    runSchedules,
    runningCount: () => active.size,
  };
}

declare module "fastify" {
  interface FastifyInstance {
    /** This node's job dispatcher; main.ts starts it after listen, and closing the app drains it. */
    jobDispatcher: Dispatcher;
  }
}
