import type { Kysely } from "kysely";
import type { Config } from "../../platform/config";
import type { DB } from "../../platform/db/schema";
import type { NoPayload } from "../../platform/jobs/jobs";
import { ROLLUP_GRACE_MS } from "../ingest/insight.plan";
import { maintenanceRepo } from "./maintenance.repo";

/** The job kind that rolls samples up and applies retention, hourly (ADR 013). */
export const HISTORY_MAINTENANCE_JOB = "history.maintain";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "history.maintain": NoPayload;
  }
}
/** How often it runs. */
export const HISTORY_MAINTENANCE_INTERVAL_MS = 3_600_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Devices per statement: a chunk's work stays a short transaction even at 100,000 routers. */
const DEVICE_CHUNK = 500;
/** Hours rolled up per pass over the devices, so a first run over days of samples moves in steps. */
const ROLLUP_STEP_MS = DAY_MS;
const DIRTY_CHUNK = 500;

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** What one maintenance run did. */
export interface MaintenanceReport {
  /** The rollup's mark after the run: hours before it are rolled up. */
  rolledUpTo: Date;
  dirtyHours: number;
  deletedRows: number;
}

/** What the run is given. */
export interface MaintenanceDeps {
  db: Kysely<DB>;
  config: Pick<Config, "historyRetentionDays" | "historyRawDays">;
  now: () => Date;
  signal?: AbortSignal;
}

async function forEachDeviceChunk(
  deps: MaintenanceDeps,
  work: (ids: string[]) => Promise<void>,
): Promise<void> {
  const repo = maintenanceRepo(deps.db);
  let after = "";
  for (;;) {
    deps.signal?.throwIfAborted();
    const ids = await repo.findDeviceIdsAcrossDomains(after, DEVICE_CHUNK);
    if (ids.length === 0) return;
    await work(ids);
    after = ids[ids.length - 1] as string;
  }
}

/**
 * Rolls every hour that ended more than ROLLUP_GRACE_MS ago up into signal_rollups, recomputes
 * hours that got late samples, then deletes what retention drops: samples (only rolled-up ones) and
 * collect_history older than HISTORY_RAW_DAYS, everything else older than HISTORY_RETENTION_DAYS.
 * Each step is idempotent, so a run cut short (a node stopped, a timeout) is simply run again.
 */
export async function maintainHistory(deps: MaintenanceDeps): Promise<MaintenanceReport> {
  const repo = maintenanceRepo(deps.db);
  const now = deps.now().getTime();
  const until = floorHour(now - ROLLUP_GRACE_MS);
  const stored = await repo.findRollupMark();
  let mark: number;
  if (stored) mark = stored.getTime();
  else {
    const oldest = await repo.findOldestSampleAcrossDomains();
    mark = oldest ? Math.min(floorHour(oldest.getTime()), until) : until;
  }
  while (mark < until) {
    const from = new Date(mark);
    const to: Date = new Date(Math.min(mark + ROLLUP_STEP_MS, until));
    await forEachDeviceChunk(deps, (ids) => repo.rollUpHoursAcrossDomains(ids, from, to));
    await repo.setRollupMark(to);
    mark = to.getTime();
  }
  if (!stored) await repo.setRollupMark(new Date(mark));

  const rawCutoff = Math.min(floorHour(now - deps.config.historyRawDays * DAY_MS), mark);
  await repo.deleteStaleDirtyHoursAcrossDomains(new Date(rawCutoff));
  let dirtyHours = 0;
  for (;;) {
    deps.signal?.throwIfAborted();
    const hours = await repo.findDirtyHoursAcrossDomains(new Date(mark), DIRTY_CHUNK);
    if (hours.length === 0) break;
    await deps.db.transaction().execute((trx) => maintenanceRepo(trx).rollUpDirtyHoursAcrossDomains(hours));
    dirtyHours += hours.length;
  }

  const cutoffs = {
    raw: new Date(rawCutoff),
    history: new Date(floorHour(now - deps.config.historyRetentionDays * DAY_MS)),
  };
  let deletedRows = 0;
  await forEachDeviceChunk(deps, async (ids) => {
    deletedRows += await repo.deleteOldHistoryAcrossDomains(ids, cutoffs);
  });
  deletedRows += await repo.deleteOldRefusals(cutoffs.history);
  return { rolledUpTo: new Date(mark), dirtyHours, deletedRows };
}
