import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Bus } from "../bus/bus";
import { type DB, toJsonb } from "../db/schema";
import type { PlatformSecrets } from "../secrets";
import type { BackoffPolicy } from "./backoff";
import { jobsRepo } from "./jobs.repo";

/** The bus topic that tells every node's dispatcher a job was committed. */
export const JOBS_WAKE_TOPIC = "jobs:wake";

/**
 * Thrown by a handler whose attempt failed with a known wait before the next one (a provider's
 * `retry_after`, an HTTP Retry-After): the next attempt runs after `delayMs` instead of the
 * kind's backoff. It still counts as an attempt.
 */
export class RetryLaterError extends Error {
  override name = "RetryLaterError";
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/** What a handler is given for one attempt of a job. */
export interface JobRun<P = Record<string, unknown>> {
  id: string;
  kind: string;
  domainId: string | null;
  payload: P;
  /** The sealed part, opened; null when the job has none. */
  secret: string | null;
  /** 1 on the first attempt. */
  attempt: number;
  /** Aborted when the attempt times out or the node stops; a handler that can stop early should. */
  signal: AbortSignal;
}

/** How one kind of job runs. */
export interface JobDefinition<P = Record<string, unknown>> {
  handle(run: JobRun<P>): Promise<void>;
  /** Attempts before the job is dead (default 5); a job may ask for its own at enqueue. */
  maxAttempts?: number;
  /** Spacing of retries (default 1 s doubling up to 10 min). */
  backoff?: BackoffPolicy;
  /** An attempt running longer fails (default 60 s). */
  timeoutMs?: number;
}

/** A definition with every default filled in. */
export type ResolvedJobDefinition = Required<JobDefinition>;

/** A job to enqueue. */
export interface NewJob<P = Record<string, unknown>> {
  kind: string;
  payload?: P;
  /** The domain the job belongs to (its admins see it); omitted for platform work. */
  domainId?: string | null;
  /** Not before this time (default: now). */
  runAt?: Date;
  /** While a live job holds this key, enqueueing another with it is a no-op. */
  dedupeKey?: string;
  maxAttempts?: number;
  /** A password or token the handler needs: stored sealed, never in clear, and erased once done. */
  secret?: string;
}

/** Durable jobs: the registry of handlers and the enqueue API that services call inside their transaction. */
export interface Jobs {
  /** Registers the handler of a kind (once per kind, at start). */
  register<P = Record<string, unknown>>(kind: string, definition: JobDefinition<P>): void;
  /** Subscribes to an outbox event: each emit becomes one job of kind `event:subscriber`, retried on its own. */
  subscribe<P = Record<string, unknown>>(
    event: string,
    subscriber: string,
    definition: JobDefinition<P>,
  ): void;
  /**
   * Runs a registered kind every `intervalMs` (hourly maintenance, periodic checks): worker nodes'
   * dispatchers enqueue it when due, once across nodes, and never while one is still queued or running.
   */
  every(kind: string, intervalMs: number): void;
  /** The periodic kinds and their intervals. */
  schedules(): ReadonlyArray<{ kind: string; intervalMs: number }>;
  /** The registered kinds, and one's definition with defaults. */
  kinds(): string[];
  definition(kind: string): ResolvedJobDefinition | undefined;
  /**
   * Writes a job in the caller's transaction, so it exists exactly when the change commits.
   * Answers the job's id, or null when its dedupe key is held by a live job (nothing written).
   */
  enqueue<P extends Record<string, unknown>>(trx: Kysely<DB>, job: NewJob<P>): Promise<string | null>;
  /** Writes an outbox event in the caller's transaction: one job per subscriber. Answers how many. */
  emit(
    trx: Kysely<DB>,
    event: string,
    payload: Record<string, unknown>,
    options?: { domainId?: string | null },
  ): Promise<number>;
  /** Runs `work` in a transaction and, once it committed, wakes the dispatchers of every node. */
  transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  /** Tells every node's dispatcher to look for due jobs now (polling catches up without it). */
  wake(): void;
}

const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 10 * 60_000 };
const DEFAULT_TIMEOUT_MS = 60_000;

/** The kind of an event's subscriber job. */
export function subscriberKind(event: string, subscriber: string): string {
  return `${event}:${subscriber}`;
}

/** Builds the registry and enqueue API; `now` stamps run_at, so tests move time for backoff. */
export function createJobs(deps: {
  db: Kysely<DB>;
  bus: Bus;
  secrets: PlatformSecrets;
  now: () => Date;
}): Jobs {
  const definitions = new Map<string, ResolvedJobDefinition>();
  const subscribers = new Map<string, string[]>();
  const periodic: Array<{ kind: string; intervalMs: number }> = [];

  const register = <P>(kind: string, definition: JobDefinition<P>) => {
    if (definitions.has(kind)) throw new Error(`Job kind ${kind} is registered twice`);
    definitions.set(kind, {
      handle: definition.handle as ResolvedJobDefinition["handle"],
      maxAttempts: definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      backoff: definition.backoff ?? DEFAULT_BACKOFF,
      timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  };

  const enqueue: Jobs["enqueue"] = async (trx, job) => {
    const definition = definitions.get(job.kind);
    // A job no node can run would sit in the queue for ever: refuse it where it is written.
    if (!definition) throw new Error(`No handler is registered for job kind ${job.kind}`);
    const now = deps.now();
    const id = randomUUID();
    const isWritten = await jobsRepo(trx).insertJob(job.domainId ?? null, {
      id,
      kind: job.kind,
      payload: toJsonb(job.payload ?? {}),
      sealed: job.secret === undefined ? null : deps.secrets.seal("job-payload", job.secret),
      state: "queued",
      run_at: job.runAt ?? now,
      max_attempts: job.maxAttempts ?? definition.maxAttempts,
      dedupe_key: job.dedupeKey ?? null,
      create_time: now,
    });
    return isWritten ? id : null;
  };

  const wake = () => {
    deps.bus.publish(JOBS_WAKE_TOPIC, {}).catch(() => {
      // A lost wake-up only delays the job until the next poll.
    });
  };

  return {
    register,
    subscribe(event, subscriber, definition) {
      const kind = subscriberKind(event, subscriber);
      register(kind, definition);
      subscribers.set(event, [...(subscribers.get(event) ?? []), kind]);
    },
    every(kind, intervalMs) {
      if (!definitions.has(kind)) throw new Error(`Job kind ${kind} is not registered`);
      if (periodic.some((entry) => entry.kind === kind))
        throw new Error(`Job kind ${kind} is periodic twice`);
      periodic.push({ kind, intervalMs });
    },
    schedules: () => periodic,
    kinds: () => [...definitions.keys()],
    definition: (kind) => definitions.get(kind),
    enqueue,
    async emit(trx, event, payload, options = {}) {
      let written = 0;
      for (const kind of subscribers.get(event) ?? []) {
        if ((await enqueue(trx, { kind, payload, domainId: options.domainId })) !== null) written += 1;
      }
      return written;
    },
    async transaction(work) {
      const result = await deps.db.transaction().execute(work);
      wake();
      return result;
    },
    wake,
  };
}
