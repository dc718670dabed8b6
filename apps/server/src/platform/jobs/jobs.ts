import { randomUUID } from "node:crypto";
import type { Kysely, RawBuilder, Transaction } from "kysely";
import type { Bus } from "../bus/bus";
import { type DB, toJsonb } from "../db/schema";
import type { PlatformSecrets } from "../secrets";
import type { BackoffPolicy } from "./backoff";
import { insertJobsWhereSql, jobsRepo } from "./jobs.repo";
import type { OutboxEvent, OutboxPayloads } from "./outbox-events";

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

/**
 * Every job kind and what its payload holds, by name (as immich keys its job payloads): a module
 * declares its kinds beside their handlers by merging into this interface, so `register`,
 * `enqueue` and `every` take declared kinds only, and a payload that does not fit its kind is a
 * compile error rather than a dead job. A kind that takes nothing maps to `NoPayload`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each module merges its kinds in
export interface JobPayloads {}

/** A declared job kind. */
export type JobKind = keyof JobPayloads & string;

/** The payload of a kind that takes none. */
export type NoPayload = Record<string, never>;

/** The kinds that take no payload: only they may be periodic (`every`). */
export type PeriodicJobKind = {
  [K in JobKind]: Record<never, never> extends JobPayloads[K] ? K : never;
}[JobKind];

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

/** A job to enqueue: its payload is its kind's, and may be left out only when nothing in it is required. */
export type NewJob<K extends JobKind = JobKind> = NewJobFields<K> &
  (Record<never, never> extends JobPayloads[K] ? { payload?: JobPayloads[K] } : { payload: JobPayloads[K] });

interface NewJobFields<K extends JobKind> {
  kind: K;
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
  register<K extends JobKind>(kind: K, definition: JobDefinition<JobPayloads[K]>): void;
  /** Subscribes to an outbox event: each emit becomes one job of kind `event:subscriber`, retried on its own. */
  subscribe<E extends OutboxEvent>(
    event: E,
    subscriber: string,
    definition: JobDefinition<OutboxPayloads[E]>,
  ): void;
  /**
   * Runs a registered kind every `intervalMs` (hourly maintenance, periodic checks): worker nodes'
   * dispatchers enqueue it when due, once across nodes, and never while one is still queued or running.
   */
  every(kind: PeriodicJobKind, intervalMs: number): void;
  /** The periodic kinds and their intervals. */
  schedules(): ReadonlyArray<{ kind: PeriodicJobKind; intervalMs: number }>;
  /** The registered kinds, and one's definition with defaults. */
  kinds(): string[];
  definition(kind: string): ResolvedJobDefinition | undefined;
  /**
   * Writes a job in the caller's transaction, so it exists exactly when the change commits.
   * Answers the job's id, or null when its dedupe key is held by a live job (nothing written).
   */
  enqueue<K extends JobKind>(trx: Kysely<DB>, job: NewJob<K>): Promise<string | null>;
  /** Writes an outbox event in the caller's transaction: one job per subscriber. Answers how many. */
  emit<E extends OutboxEvent>(
    trx: Kysely<DB>,
    event: E,
    payload: OutboxPayloads[E],
    options?: { domainId?: string | null },
  ): Promise<number>;
  /**
   * An outbox event as a part of one statement (a data-modifying CTE): one job per subscriber whose
   * payload the statement works out (`payload`, a jsonb expression over its other parts), written
   * only `when` it holds. Null when the event has no subscribers. The caller wakes the dispatchers
   * after the statement, as after a transaction.
   */
  emitSql<E extends OutboxEvent>(
    event: E,
    payload: RawBuilder<OutboxPayloads[E]>,
    when: RawBuilder<boolean>,
  ): RawBuilder<unknown> | null;
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
  const periodic: Array<{ kind: PeriodicJobKind; intervalMs: number }> = [];

  const register = <P>(kind: string, definition: JobDefinition<P>) => {
    if (definitions.has(kind)) throw new Error(`Job kind ${kind} is registered twice`);
    definitions.set(kind, {
      handle: definition.handle as ResolvedJobDefinition["handle"],
      maxAttempts: definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      backoff: definition.backoff ?? DEFAULT_BACKOFF,
      timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  };

  // Inside, kinds are strings: an event's subscriber kinds (`event:subscriber`) are made here.
  const enqueue = async (
    trx: Kysely<DB>,
    job: Omit<NewJobFields<JobKind>, "kind"> & { kind: string; payload?: unknown },
  ) => {
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
    enqueue: (trx, job) => enqueue(trx, job),
    async emit(trx, event, payload, options = {}) {
      let written = 0;
      for (const kind of subscribers.get(event) ?? []) {
        if ((await enqueue(trx, { kind, payload, domainId: options.domainId })) !== null) written += 1;
      }
      return written;
    },
    emitSql(event, payload, when) {
      const kinds = subscribers.get(event) ?? [];
      if (kinds.length === 0) return null;
      const jobs = kinds.map((kind) => ({
        id: randomUUID(),
        kind,
        max_attempts: definitions.get(kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      }));
      return insertJobsWhereSql(jobs, payload, when, deps.now());
    },
    async transaction(work) {
      const result = await deps.db.transaction().execute(work);
      wake();
      return result;
    },
    wake,
  };
}
