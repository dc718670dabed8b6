import {
  buildStatusTimeline,
  DEFAULT_DOMAIN_SETTINGS,
  HISTORY_RANGE_MS,
  type HistoryRange,
  historyBucketMs,
  type MetricSeries,
  type ModemSignalSeries,
  OUTAGE_MIN_MS,
  ROLLUP_BUCKET_MS,
  SIGNAL_METRICS,
  type SignalHistory,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "../devices/devices.repo";
import { requireDeviceDomain } from "../devices/devices.service";
import { historyRepo, type SignalBucketRow, type SignalQuery } from "./history.repo";
import { maintenanceRepo } from "./maintenance.repo";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/**
 * Where a range is read from (ADR 013). Buckets of an hour or more come from the hourly rollups up
 * to the rollup's mark, samples after it. Shorter buckets come from samples as far back as they are
 * kept (HISTORY_RAW_DAYS, whole hours), rollups before that.
 */
export function planSignalQuery(input: {
  from: Date;
  to: Date;
  bucketMs: number;
  rollupMark: Date | null;
  rawDays: number;
}): SignalQuery {
  const { from, to, bucketMs, rollupMark } = input;
  let rawFrom: number;
  if (bucketMs >= ROLLUP_BUCKET_MS) {
    rawFrom = rollupMark ? Math.max(from.getTime(), rollupMark.getTime()) : from.getTime();
  } else {
    const rawKept = Math.ceil((to.getTime() - input.rawDays * DAY_MS) / HOUR_MS) * HOUR_MS;
    // Samples older than the mark may already be gone only if they were rolled up first.
    const oldestSafe = rollupMark ? Math.min(rawKept, rollupMark.getTime()) : from.getTime();
    rawFrom = Math.max(from.getTime(), oldestSafe);
  }
  return { from, to, bucketMs, rawFrom: new Date(Math.min(rawFrom, to.getTime())) };
}

/** Bucket rows of one query, grouped per modem into the answer's column arrays. */
export function toModemSeries(rows: readonly SignalBucketRow[]): ModemSignalSeries[] {
  const byModem = new Map<string, ModemSignalSeries>();
  for (const row of rows) {
    let series = byModem.get(row.modem);
    if (!series) {
      const empty = (): MetricSeries => ({ min: [], max: [], mean: [] });
      series = {
        modem: row.modem,
        t: [],
        rsrp: empty(),
        rsrq: empty(),
        sinr: empty(),
        rssi: empty(),
        csq: empty(),
      };
      byModem.set(row.modem, series);
    }
    series.t.push(Number(row.bucket));
    for (const metric of SIGNAL_METRICS) {
      series[metric].min.push(round1(row[`${metric}_min`]));
      series[metric].max.push(round1(row[`${metric}_max`]));
      series[metric].mean.push(round1(row[`${metric}_mean`]));
    }
  }
  return [...byModem.values()];
}

/**
 * POST /api/device/{dev_id}/signal: the device's signal per modem over the range that ends now, by
 * bucket, with outages, modem changes, reboots and the status timeline on the same time axis.
 */
export async function readSignalHistory(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
  range: HistoryRange,
): Promise<SignalHistory> {
  const domainId = requireDeviceDomain(session);
  const repo = historyRepo(ctx.db);
  const device = await repo.findDeviceContact(domainId, deviceId);
  if (!device) throw new AppError("DEVICE_NOT_FOUND");
  const now = ctx.now();
  const to = now;
  const from = new Date(now.getTime() - HISTORY_RANGE_MS[range]);
  const bucketMs = historyBucketMs(HISTORY_RANGE_MS[range]);
  const query = planSignalQuery({
    from,
    to,
    bucketMs,
    rollupMark: await maintenanceRepo(ctx.db).findRollupMark(),
    rawDays: ctx.config.historyRawDays,
  });
  const [rows, outages, changes, reboots, firstKnown, domain] = await Promise.all([
    repo.findSignalBuckets(domainId, deviceId, query),
    repo.findOutages(domainId, deviceId, from, to),
    repo.findModemChanges(domainId, deviceId, from, to),
    repo.findReboots(domainId, deviceId, from, to),
    repo.findFirstKnown(domainId, deviceId),
    devicesRepo(ctx.db).findDomainFleetSettings(domainId),
  ]);
  const outageList = outages.map((outage) => ({
    from: outage.started.getTime(),
    to: outage.ended.getTime(),
    is_ongoing: false,
  }));
  // Silent now: the outage that is still going on, from the last contact until this moment.
  const lastContact = device.last_contact?.getTime() ?? null;
  if (lastContact !== null && now.getTime() - lastContact > OUTAGE_MIN_MS) {
    outageList.push({ from: lastContact, to: now.getTime(), is_ongoing: true });
  }
  const since = [firstKnown?.getTime() ?? null, lastContact].filter(
    (value): value is number => value !== null,
  );
  return {
    range,
    from: from.getTime(),
    to: to.getTime(),
    bucket_ms: bucketMs,
    modems: toModemSeries(rows),
    outages: outageList,
    changes: changes.map((change) => ({
      time: change.time.getTime(),
      modem: change.modem,
      changes: change.changes,
    })),
    reboots: reboots.map((time) => time.getTime()),
    timeline: buildStatusTimeline({
      from: from.getTime(),
      to: to.getTime(),
      since: since.length > 0 ? Math.min(...since) : null,
      outages: outageList,
      thresholds: (domain?.settings ?? DEFAULT_DOMAIN_SETTINGS).status,
    }),
  };
}
