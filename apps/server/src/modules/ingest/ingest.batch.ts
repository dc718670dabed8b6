import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { Jobs } from "../../platform/jobs/jobs";
import { type DeviceReportedPayload, OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import type { BatchPlan, CommandStatusReport, ParsedReport } from "./ingest.plan";
import { planBatch } from "./ingest.plan";
import type { WrittenBatch } from "./ingest.realtime";
import { type IngestRepo, ingestRepo, type LockedDevice, type StoredCollect } from "./ingest.repo";
import { ingestStatementRepo } from "./ingest-statement.repo";
import { ingestInsightRepo } from "./insight.repo";
import type { LatestCollectsCache } from "./latest-collects";
import { devicesStartingEpoch, renumberReports } from "./seq-epochs";

// One batch of reports, written at once (ADR 037). Everything a batch writes is read and worked out
// first: the devices, their latest states, the plan. A batch without command statuses or a new
// epoch is then one statement that locks, checks and writes, its events and outbox event included
// (ingest-statement.repo.ts). Any other batch, or one whose check failed, takes a transaction: the
// devices' rows are locked and checked against what the plan was made from, the latest states' seqs
// likewise, and the writes follow one another with no work of Node between them. Only if another
// writer (another node) moved one of those devices in between is the batch read and planned again,
// under the locks, inside the transaction (the path every batch took before).

/** The actions feature's hook: moves executions by routers' statuses in the ingest transaction. */
export type CommandStatusHook = (
  trx: Kysely<DB>,
  reports: readonly CommandStatusReport[],
) => Promise<() => Promise<void>>;

/** What a batch is written with (the pipeline's dependencies, ingest.service.ts IngestDeps). */
export interface BatchDeps {
  db: Kysely<DB>;
  now: () => Date;
  log: { warn(obj: object, msg: string): void };
  jobs?: Jobs;
  commandStatuses?: CommandStatusHook;
}

/** A batch's writes, worked out, and what they were worked out from. */
interface PreparedBatch {
  devices: LockedDevice[];
  stored: StoredCollect[];
  plan: BatchPlan;
  restarted: ReturnType<typeof renumberReports>["restarted"];
}

/** What a written batch answers: its plan, the rows the push sends, and work after commit. */
export interface BatchResult {
  plan: BatchPlan;
  written: WrittenBatch;
  afterCommit: (() => Promise<void>) | null;
  /** Whether the batch had to be read and planned again under its locks (another writer moved it). */
  isReplanned: boolean;
  /** Routers that started a new seq epoch in the batch. */
  restarted: number;
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

/** A device row's numbering and contact as the plan depends on them. */
const deviceState = (device: LockedDevice) =>
  `${device.id}\u0000${device.domain_id}\u0000${device.ident}\u0000${device.last_contact?.getTime() ?? ""}\u0000${device.last_seq}\u0000${device.seq_epoch}\u0000${device.seq_offset}\u0000${device.seq_prev_epoch}\u0000${device.seq_prev_offset}`;

const sameStates = <T>(a: readonly T[], b: readonly T[], key: (row: T) => string) => {
  if (a.length !== b.length) return false;
  const keys = new Set(a.map(key));
  return b.every((row) => keys.has(key(row)));
};

/** Creates the batch writer over the pipeline's dependencies and its cache of latest states. */
export function createBatchWriter(deps: BatchDeps, latestData: LatestCollectsCache) {
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

  /** Reads and plans the batch over `r` given its devices (read, or locked, by the caller). */
  const prepare = async (
    r: IngestRepo,
    sent: readonly ParsedReport[],
    devices: LockedDevice[],
    now: Date,
  ): Promise<PreparedBatch> => {
    const starting = devicesStartingEpoch(sent, devices);
    if (starting.length > 0) {
      const highest = await r.findHighestStoredSeqsAcrossDomains(starting.map((device) => device.id));
      for (const device of starting) device.last_seq = Math.max(device.last_seq, highest.get(device.id) ?? 0);
    }
    const numbered = renumberReports(sent, devices);
    const hasCollects = numbered.reports.some((report) => report.kind === "collect");
    const stored = hasCollects
      ? await readLatest(
          r,
          devices.map((device) => device.id),
        )
      : [];
    const plan = planBatch(numbered.reports, devices, stored, now);
    if (plan.events.length > 0) await markInactiveKindsRead(r, plan);
    return { devices, stored, plan, restarted: numbered.restarted };
  };

  /** The writes of a prepared batch, inside its transaction. */
  const write = async (trx: Kysely<DB>, prepared: PreparedBatch, now: Date) => {
    const r = ingestRepo(trx);
    const { plan } = prepared;
    if (prepared.restarted.length > 0) {
      await r.updateSeqEpochsAcrossDomains(prepared.restarted);
      deps.log.warn(
        { idents: prepared.restarted.slice(0, 10).map((device) => device.ident) },
        "routers restarted their sequence numbers (new epoch)",
      );
    }
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
    await ingestInsightRepo(trx).writeInsightAcrossDomains(plan.insight);
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
    return { touched, events, afterCommit };
  };

  return async function writeBatch(sent: readonly ParsedReport[]): Promise<BatchResult> {
    const now = deps.now();
    const idents = [...new Set(sent.map((report) => report.ident))];
    const outside = ingestRepo(deps.db);
    const ahead = await prepare(outside, sent, await outside.findDevicesByIdentAcrossDomains(idents), now);
    const { plan } = ahead;
    // Commands' statuses (the actions hook writes in a transaction) and new epochs take the transaction.
    const isOneStatement = ahead.restarted.length === 0 && plan.commandStatuses.length === 0;
    if (isOneStatement) {
      for (const touch of plan.touches) touch.events_added = 0;
      const { jobs } = deps;
      const { isWritten, touched, events } = await ingestStatementRepo(deps.db).writeBatchAcrossDomains({
        ...plan,
        idents,
        devices: ahead.devices,
        stored: ahead.stored.length > 0 ? ahead.stored : null,
        deviceReported: jobs
          ? (payload, when) => jobs.emitSql(OUTBOX_EVENTS.deviceReported, payload, when)
          : null,
        now,
      });
      if (isWritten) {
        const identById = new Map(ahead.devices.map((device) => [device.id, device.ident]));
        const written = { touched, events, idents: identById };
        return { plan, written, afterCommit: null, isReplanned: false, restarted: 0 };
      }
    }
    return deps.db.transaction().execute(async (trx) => {
      const r = ingestRepo(trx);
      const locked = await r.lockDevicesByIdentAcrossDomains(idents);
      let prepared = ahead;
      // A router starting a new epoch is numbered after the highest seq stored, read under its lock.
      let isReplanned = ahead.restarted.length > 0 || !sameStates(locked, ahead.devices, deviceState);
      if (!isReplanned && ahead.stored.length > 0) {
        const seqs = await r.findCollectSeqsAcrossDomains(locked.map((device) => device.id));
        isReplanned = !sameStates(
          seqs,
          ahead.stored,
          (row) => `${row.device_id}\u0000${row.type}\u0000${row.seq}`,
        );
      }
      if (isReplanned) prepared = await prepare(r, sent, locked, now);
      const { touched, events, afterCommit } = await write(trx, prepared, now);
      const restarted = prepared.restarted.length;
      const identById = new Map(prepared.devices.map((device) => [device.id, device.ident]));
      return {
        plan: prepared.plan,
        written: { touched, events, idents: identById },
        afterCommit,
        isReplanned,
        restarted,
      };
    });
  };
}
