import type { Kysely } from "kysely";
import type { Bus } from "../../platform/bus/bus";
import type { DB } from "../../platform/db/schema";
import type { Jobs } from "../../platform/jobs/jobs";
import { type DeviceReportedPayload, OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { type BatchPlan, type CommandStatusReport, type ParsedReport, planBatch } from "./ingest.plan";
import { publishBatch, type WrittenBatch } from "./ingest.realtime";
import { type IngestRepo, ingestRepo, type StoredCollect } from "./ingest.repo";
import { ingestInsightRepo } from "./insight.repo";
import { latestCollectsCache } from "./latest-collects";
import { devicesStartingEpoch, renumberReports } from "./seq-epochs";

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
   * is already being written. Devices are locked in id order, so two batches never deadlock.
   */
  concurrency: number;
}

/**
 * Defaults: 50 ms or 1,000 reports a batch, four batches at once, at most 20,000 reports waiting.
 * Four rather than two: batches of the same devices wait for each other's row locks, and with more
 * of them queued the database always has the next one ready when a commit ends (bench/README.md:
 * about 10,300 reports/s with two, 12,000 with four, on PostgreSQL on two cores).
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

/** The actions feature's hook: moves executions by routers' statuses in the ingest transaction. */
export type CommandStatusHook = (
  trx: Kysely<DB>,
  reports: readonly CommandStatusReport[],
) => Promise<() => Promise<void>>;

/** Counters of what ingest did, for GET /api/mqtt/stats. */
export interface IngestStats {
  stored: number;
  duplicates: number;
  unknownDevice: number;
  batches: number;
  failedBatches: number;
  /** Routers that started a new seq epoch (counters restarted, docs/device-protocol.md 5.1). */
  epochsRestarted: number;
  queued: number;
}

interface Pending {
  report: ParsedReport;
  resolve: () => void;
  reject: (error: Error) => void;
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

/** The batch's insight rows (signal samples, SIM usage, modem changes, outages), in its transaction. */
async function writeInsight(r: ReturnType<typeof ingestInsightRepo>, plan: BatchPlan): Promise<void> {
  const { samples, usage, changes, outages, dirty } = plan.insight;
  await r.insertSignalSamplesAcrossDomains(samples);
  if (usage.size > 0) await r.addSimUsageAcrossDomains([...usage.values()]);
  await r.insertModemChangesAcrossDomains(changes);
  await r.insertOutagesAcrossDomains(outages);
  if (dirty.size > 0) await r.markRollupDirtyAcrossDomains([...dirty.values()]);
}

/** Events of kinds their domain switched off (settings' event types) are stored read. */
async function markInactiveKindsRead(r: IngestRepo, plan: BatchPlan): Promise<void> {
  const inactive = await r.findInactiveEventKindsAcrossDomains([
    ...new Set(plan.events.map((event) => event.domain_id)),
  ]);
  if (inactive.size === 0) return;
  for (const event of plan.events) {
    if (inactive.has(`${event.domain_id}\u0000${event.kind}`)) {
      event.is_read = true;
      event.is_quiet = true;
    }
  }
}

/** Starts the pipeline over the database and bus. */
export function createIngestPipeline(deps: IngestDeps, options: Partial<IngestOptions> = {}): IngestPipeline {
  const settings = { ...DEFAULT_INGEST_OPTIONS, ...options };
  const repo = ingestRepo(deps.db);
  let queue: Pending[] = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | null = null;
  let active = 0;
  const flushing = new Set<Promise<void>>();
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
  };

  const waiting = () => queue.length + inFlight;

  const schedule = () => {
    while (active < settings.concurrency && queue.length >= settings.maxBatch) startFlush();
    if (queue.length > 0 && active < settings.concurrency && !timer) {
      timer = setTimeout(() => {
        timer = null;
        if (queue.length > 0 && active < settings.concurrency) startFlush();
        schedule();
      }, settings.flushIntervalMs);
    }
  };

  const startFlush = () => {
    active++;
    const running: Promise<void> = flush().finally(() => {
      active--;
      flushing.delete(running);
      schedule();
    });
    flushing.add(running);
  };

  const latestData = latestCollectsCache();

  const readLatest = async (r: IngestRepo, deviceIds: string[]): Promise<StoredCollect[]> => {
    const seqs = await r.findCollectSeqsAcrossDomains(deviceIds);
    const stored: StoredCollect[] = [];
    const missing = new Set<string>();
    for (const row of seqs) {
      const cached = latestData.find(row.device_id, row.type, row.seq);
      if (cached) stored.push({ ...row, data: cached.data });
      else missing.add(row.device_id);
    }
    if (missing.size === 0) return stored;
    const fetched = await r.findCollectsAcrossDomains([...missing]);
    return [...stored.filter((row) => !missing.has(row.device_id)), ...fetched];
  };

  const rememberLatest = (plan: BatchPlan) => latestData.remember(plan.collects);

  const writeBatch = async (
    sent: readonly ParsedReport[],
  ): Promise<{ plan: BatchPlan; written: WrittenBatch; afterCommit: (() => Promise<void>) | null }> => {
    const now = deps.now();
    return deps.db.transaction().execute(async (trx) => {
      const r = ingestRepo(trx);
      const idents = [...new Set(sent.map((report) => report.ident))];
      const devices = await r.lockDevicesByIdentAcrossDomains(idents);
      const starting = devicesStartingEpoch(sent, devices);
      if (starting.length > 0) {
        const highest = await r.findHighestStoredSeqsAcrossDomains(starting.map((device) => device.id));
        for (const device of starting)
          device.last_seq = Math.max(device.last_seq, highest.get(device.id) ?? 0);
      }
      const numbered = renumberReports(sent, devices);
      const reports = numbered.reports;
      if (numbered.restarted.length > 0) {
        await r.updateSeqEpochsAcrossDomains(numbered.restarted);
        counters.epochsRestarted += numbered.restarted.length;
        deps.log.warn(
          { idents: numbered.restarted.slice(0, 10).map((device) => device.ident) },
          "routers restarted their sequence numbers (new epoch)",
        );
      }
      const hasCollects = reports.some((report) => report.kind === "collect");
      const stored = hasCollects
        ? await readLatest(
            r,
            devices.map((d) => d.id),
          )
        : [];
      const plan = planBatch(reports, devices, stored, now);
      if (plan.events.length > 0) await markInactiveKindsRead(r, plan);
      const events = plan.events.length > 0 ? await r.insertEventsAcrossDomains(plan.events) : [];
      // Only unread events are 'new': they count on the device and reach the notification rules.
      const fresh = events.filter((event) => !event.is_quiet);
      const added = new Map<string, number>();
      for (const event of fresh) {
        if (event.device_id) added.set(event.device_id, (added.get(event.device_id) ?? 0) + 1);
      }
      for (const touch of plan.touches) touch.events_added = added.get(touch.id) ?? 0;
      if (plan.collects.length > 0) await r.upsertCollectsAcrossDomains(plan.collects);
      if (plan.history.length > 0) await r.insertHistoryAcrossDomains(plan.history);
      await writeInsight(ingestInsightRepo(trx), plan);
      const afterCommit =
        deps.commandStatuses && plan.commandStatuses.length > 0
          ? await deps.commandStatuses(trx, plan.commandStatuses)
          : null;
      const touched = await r.touchDevicesAcrossDomains(plan.touches, now, plan.contactStaleBefore);
      if (deps.jobs && (plan.connected.length > 0 || fresh.length > 0)) {
        const payload: DeviceReportedPayload = {
          connected: plan.connected,
          events: fresh.map((event) => String(event.id)),
        };
        await deps.jobs.emit(trx, OUTBOX_EVENTS.deviceReported, { ...payload });
      }
      return { plan, written: { touched, events }, afterCommit };
    });
  };

  async function flush(): Promise<void> {
    const batch = queue.splice(0, settings.maxBatch);
    inFlight += batch.length;
    try {
      const reports = batch.map((entry) => entry.report);
      const { plan, written, afterCommit } = await writeBatch(reports);
      if (plan.connected.length > 0 || written.events.length > 0 || plan.commandStatuses.length > 0)
        deps.jobs?.wake();
      rememberLatest(plan);
      counters.batches++;
      // An event already stored (a repeat after a reconnect) is skipped by the insert: a duplicate too.
      const duplicates = plan.duplicates + (plan.events.length - written.events.length);
      counters.stored += reports.length - duplicates - plan.unknownDevice;
      counters.duplicates += duplicates;
      counters.unknownDevice += plan.unknownDevice;
      if (plan.unknownDevice > 0)
        deps.log.warn({ count: plan.unknownDevice }, "reports of devices that no longer exist");
      for (const entry of batch) entry.resolve();
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
      await waitForRoom();
      if (closed) throw new Error("ingest is closed");
      return new Promise<void>((resolve, reject) => {
        queue.push({ report, resolve, reject });
        schedule();
      });
    },
    stats() {
      return { ...counters, queued: waiting() };
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      while (queue.length > 0 || flushing.size > 0) {
        if (queue.length > 0 && active < settings.concurrency) startFlush();
        await Promise.race(flushing);
      }
      for (const resolve of roomWaiters.splice(0)) resolve();
      await Promise.all(pushes);
      queue = [];
    },
  };
}
