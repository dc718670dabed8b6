import type { Kysely } from "kysely";
import type { Bus } from "../../platform/bus/bus";
import type { DB } from "../../platform/db/schema";
import type { Jobs } from "../../platform/jobs/jobs";
import { type CommandStatusHook, createBatchWriter } from "./ingest.batch";
import type { ParsedReport } from "./ingest.plan";
import { publishBatch } from "./ingest.realtime";
import { ingestRepo } from "./ingest.repo";
import { latestCollectsCache } from "./latest-collects";
import { createStoredLatency, type StoredLatency } from "./stored-latency";

/** Batching and backpressure settings of the ingest pipeline. */
export interface IngestOptions {
  /** A batch is written this long after its first report at the latest. */
  flushIntervalMs: number;
  /** A batch is written as soon as it holds this many reports. */
  maxBatch: number;
  /** Reports waiting (queued + being written) before submit() makes callers wait: backpressure. */
  maxQueue: number;
  /**
   * Batches written at once, each in its own transaction: while one waits for its commit the next
   * is already being written. Each writes its own share of the routers (a lane, by ident), so two
   * never wait on each other's row locks; devices are locked in id order, so two nodes never deadlock.
   */
  concurrency: number;
}

/**
 * Defaults: 50 ms or 1,000 reports a batch, four lanes (batches at once), at most 20,000 reports
 * waiting. With four the database has the next batch ready when a commit ends (bench/README.md).
 */
export const DEFAULT_INGEST_OPTIONS: IngestOptions = {
  flushIntervalMs: 50,
  maxBatch: 1000,
  maxQueue: 20_000,
  concurrency: 4,
};

/** What the pipeline needs from the platform. */
export interface IngestDeps {
  db: Kysely<DB>;
  bus: Bus;
  now: () => Date;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /**
   * The outbox: a batch that committed hellos or new events emits `device.reported` in its own
   * transaction, so whoever listens (notification rules) hears of exactly what committed. Without
   * it (tests of ingest alone) nothing is emitted.
   */
  jobs?: Jobs;
  /**
   * Applies routers' command statuses inside the batch's transaction (the actions feature), so a
   * status is acknowledged only once its execution moved. Without it statuses only count as contact.
   */
  commandStatuses?: CommandStatusHook;
}

/** Counters of what ingest did, for GET /api/mqtt/stats. */
export interface IngestStats {
  stored: number;
  duplicates: number;
  unknownDevice: number;
  batches: number;
  failedBatches: number;
  /** Routers that started a new seq epoch (counters restarted, docs/device-protocol.md 5.1). */
  epochsRestarted: number;
  /** Batches read and planned again under their locks: another writer moved a router in between. */
  replannedBatches: number;
  queued: number;
  /** Seconds from a report reaching this node to its batch's commit. */
  storedLatency: StoredLatency;
}

interface Pending {
  report: ParsedReport;
  /** When it reached submit() (performance.now()). */
  arrivedAt: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The reports of one share of the routers, and the batch of them being written. */
interface Lane {
  queue: Pending[];
  running: Promise<void> | null;
}

/** A router's lane: FNV-1a of its ident (idents are global, so a router always lands in one lane). */
function identHash(ident: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < ident.length; i++) hash = Math.imul(hash ^ ident.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The ingest pipeline: reports in, one transaction per batch, acknowledgements after commit. */
export interface IngestPipeline {
  /**
   * Queues a valid report; resolves once it is committed (then, and only then, may it be
   * acknowledged). While the queue is full it first waits for room, so callers stop reading.
   */
  submit(report: ParsedReport): Promise<void>;
  /** Resolves when the queue has room (external-broker mode waits here before reading on). */
  waitForRoom(): Promise<void>;
  stats(): IngestStats;
  /** Writes what is queued, then refuses new reports. */
  close(): Promise<void>;
}

/** Starts the pipeline over the database and bus. */
export function createIngestPipeline(deps: IngestDeps, options: Partial<IngestOptions> = {}): IngestPipeline {
  const settings = { ...DEFAULT_INGEST_OPTIONS, ...options };
  const repo = ingestRepo(deps.db);
  // One lane per batch in flight; a router's reports always go to the same lane (its ident's hash),
  // and a lane writes one batch at a time, so two batches in flight never hold the same router's
  // row: no batch waits on another's locks (ADR 037).
  const lanes: Lane[] = Array.from({ length: Math.max(1, settings.concurrency) }, () => ({
    queue: [],
    running: null,
  }));
  let queued = 0;
  let inFlight = 0;
  let timer: NodeJS.Timeout | null = null;
  // Realtime pushes still running, so close() can wait for them before the database goes away.
  const pushes = new Set<Promise<void>>();
  let closed = false;
  const roomWaiters: Array<() => void> = [];
  const counters = {
    stored: 0,
    duplicates: 0,
    unknownDevice: 0,
    batches: 0,
    failedBatches: 0,
    epochsRestarted: 0,
    replannedBatches: 0,
  };

  const storedLatency = createStoredLatency();
  const waiting = () => queued + inFlight;
  const laneOf = (ident: string) => lanes[identHash(ident) % lanes.length] as Lane;

  /** Starts each idle lane holding a full batch, or any reports at all when `isDue`. */
  const schedule = (isDue = false) => {
    for (const lane of lanes) {
      if (!lane.running && lane.queue.length > 0 && (isDue || lane.queue.length >= settings.maxBatch))
        startFlush(lane);
    }
    if (queued > 0 && !timer && lanes.some((lane) => !lane.running && lane.queue.length > 0)) {
      timer = setTimeout(() => {
        timer = null;
        schedule(true);
      }, settings.flushIntervalMs);
    }
  };

  const startFlush = (lane: Lane) => {
    const running: Promise<void> = flush(lane).finally(() => {
      lane.running = null;
      // What queued while the batch was written has waited at least that long: written next.
      if (lane.queue.length > 0) startFlush(lane);
      else schedule();
    });
    lane.running = running;
  };

  const latestData = latestCollectsCache();
  const writeBatch = createBatchWriter(deps, latestData);

  async function flush(lane: Lane): Promise<void> {
    const batch = lane.queue.splice(0, settings.maxBatch);
    queued -= batch.length;
    inFlight += batch.length;
    try {
      const reports = batch.map((entry) => entry.report);
      const { plan, written, afterCommit, isReplanned, restarted } = await writeBatch(reports);
      if (plan.connected.length > 0 || written.events.length > 0 || plan.commandStatuses.length > 0)
        deps.jobs?.wake();
      latestData.remember(plan.collects);
      counters.batches++;
      if (isReplanned) counters.replannedBatches++;
      counters.epochsRestarted += restarted;
      // An event already stored (a repeat after a reconnect) is skipped by the insert: a duplicate too.
      const duplicates = plan.duplicates + (plan.events.length - written.events.length);
      counters.stored += reports.length - duplicates - plan.unknownDevice;
      counters.duplicates += duplicates;
      counters.unknownDevice += plan.unknownDevice;
      if (plan.unknownDevice > 0)
        deps.log.warn({ count: plan.unknownDevice }, "reports of devices that no longer exist");
      const committedAt = performance.now();
      for (const entry of batch) {
        storedLatency.observe((committedAt - entry.arrivedAt) / 1000);
        entry.resolve();
      }
      const push: Promise<void> = publishBatch(deps, written, plan, repo)
        .then(() => afterCommit?.())
        .catch((error: unknown) => deps.log.error({ err: error }, "realtime push after ingest failed"))
        .finally(() => pushes.delete(push));
      pushes.add(push);
    } catch (error) {
      counters.failedBatches++;
      deps.log.error(
        { err: error, reports: batch.length },
        "ingest batch failed; its reports stay unacknowledged",
      );
      for (const entry of batch) entry.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      inFlight -= batch.length;
      while (roomWaiters.length > 0 && waiting() < settings.maxQueue) roomWaiters.shift()?.();
    }
  }

  const waitForRoom = async () => {
    while (!closed && waiting() >= settings.maxQueue) {
      await new Promise<void>((resolve) => roomWaiters.push(resolve));
    }
  };

  return {
    waitForRoom,
    async submit(report) {
      const arrivedAt = performance.now();
      await waitForRoom();
      if (closed) throw new Error("ingest is closed");
      return new Promise<void>((resolve, reject) => {
        laneOf(report.ident).queue.push({ report, arrivedAt, resolve, reject });
        queued++;
        schedule();
      });
    },
    stats() {
      return { ...counters, queued: waiting(), storedLatency: storedLatency.read() };
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      schedule(true);
      for (;;) {
        const running = lanes.flatMap((lane) => (lane.running ? [lane.running] : []));
        if (running.length === 0) break;
        await Promise.all(running);
      }
      for (const resolve of roomWaiters.splice(0)) resolve();
      await Promise.all(pushes);
    },
  };
}
