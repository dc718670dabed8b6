import {
  CSV_EXPORT_CHUNK,
  OUTAGE_MIN_MS,
  type TagScope,
  type UptimeFigures,
  type UptimeReport,
  type UptimeReportRequest,
  UptimeReportRequestSchema,
} from "@cellfleet/contract";
import { DateTime } from "luxon";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { requireDeviceDomain } from "../devices/devices.service";
import { rolloutOffersRepo } from "../firmware/rollout-offers.repo";
import { historyRepo } from "../insight/history.repo";
import { planSignalQuery } from "../insight/history.service";
import { maintenanceRepo } from "../insight/maintenance.repo";
import { usageRepo } from "../insight/usage.repo";
import { settingsRepo } from "../settings/settings.repo";
import {
  backupStretches,
  downWithin,
  type Interval,
  percentOf,
  type RouterHistory,
  routerFigures,
  totalFigures,
} from "./uptime.figures";
import { type ReportDeviceFilter, uptimeRepo } from "./uptime.repo";

/** A month of the domain's time zone: its bounds, its days and the UTC days its usage is read from. */
interface ReportMonth {
  from: Date;
  to: Date;
  days: Interval[];
  firstDay: string;
  nextFirstDay: string;
}

function monthOf(month: string, zone: string): ReportMonth {
  const start = DateTime.fromISO(`${month}-01`, { zone });
  const end = start.plus({ months: 1 });
  const days: Interval[] = [];
  for (let day = start; day < end; day = day.plus({ days: 1 })) {
    days.push({ from: day.toMillis(), to: day.plus({ days: 1 }).toMillis() });
  }
  return {
    from: start.toJSDate(),
    to: end.toJSDate(),
    days,
    firstDay: start.toISODate() ?? `${month}-01`,
    nextFirstDay: end.toISODate() ?? "",
  };
}

/**
 * The routers of the request's scope, after its checks (tag known, router the domain's), within the
 * caller's tag scope (ADR 041).
 */
async function scopeFilter(
  ctx: AppContext,
  domainId: string,
  request: UptimeReportRequest,
  tagScope: TagScope,
) {
  const repo = uptimeRepo(ctx.db);
  const filter: ReportDeviceFilter = { tagScope };
  if (request.scope === "tag") {
    if (!request.tag) throw new AppError("NOT_ENOUGH_PARAMS", "tag: a tag report names its tag");
    if (!(await repo.hasTag(domainId, request.tag, tagScope)))
      throw new AppError("BAD_REQUEST", `tag: no router of the domain has the tag "${request.tag}"`);
    filter.tag = request.tag;
  } else if (request.scope === "device") {
    if (!request.device_id)
      throw new AppError("NOT_ENOUGH_PARAMS", "device_id: a router report names its router");
    filter.deviceId = request.device_id;
  }
  return filter;
}

/**
 * POST /api/uptime: per router and together, over one month of the domain's time zone,
 * from the stored history (ADR 044): connected time from the outages (and the ongoing silence),
 * outages, time on a backup SIM, mean signal, data per SIM and firmware flashes.
 */
export async function readUptimeReport(
  ctx: AppContext,
  session: SessionContext,
  input: UptimeReportRequest,
): Promise<UptimeReport> {
  return computeUptimeReport(ctx, requireDeviceDomain(session), input, tagScopeOf(session));
}

/**
 * The report of a domain, without a session: the mailed PDF's job computes it as the page does
 * (its rules are admins', whom no tag limits); a caller limited to tags passes their scope.
 */
export async function computeUptimeReport(
  ctx: AppContext,
  domainId: string,
  input: UptimeReportRequest,
  tagScope: TagScope = [],
): Promise<UptimeReport> {
  const request = UptimeReportRequestSchema.parse(input);
  const zone = (await settingsRepo(ctx.db).findTimeZone(domainId)) ?? "UTC";
  const month = monthOf(request.month, zone);
  const now = ctx.now();
  if (month.from.getTime() > now.getTime())
    throw new AppError(
      "BAD_REQUEST",
      `month: ${request.month} has not begun in the domain's time zone (${zone})`,
    );
  const filter = await scopeFilter(ctx, domainId, request, tagScope);
  const devices = await uptimeRepo(ctx.db).findReportDevices(domainId, filter, month.to);
  if (request.scope === "device" && devices.length === 0) throw new AppError("DEVICE_NOT_FOUND");

  const ids = devices.map((device) => device.id);
  const until = new Date(Math.min(month.to.getTime(), now.getTime()));
  const history = historyRepo(ctx.db);
  const signalQuery = planSignalQuery({
    from: month.from,
    to: until,
    bucketMs: until.getTime() - month.from.getTime(),
    rollupMark: await maintenanceRepo(ctx.db).findRollupMark(),
    rawDays: ctx.config.historyRawDays,
  });
  const [outages, signal, slotChanges, slotsNow, usage, flashes] = await Promise.all([
    history.findOutagesOfDevices(domainId, ids, month.from, until),
    history.findSignalMeansOfDevices(domainId, ids, signalQuery),
    history.findSimSlotChangesOfDevices(domainId, ids),
    uptimeRepo(ctx.db).findModemSlots(domainId, ids),
    usageRepo(ctx.db).findUsageOfDevices(domainId, ids, month.firstDay, month.nextFirstDay),
    rolloutOffersRepo(ctx.db).countSucceededFlashesOfDevices(domainId, ids, month.from, until),
  ]);
  const group = <T extends { device_id: string }>(rows: readonly T[]) => {
    const out = new Map<string, T[]>();
    for (const row of rows) {
      const list = out.get(row.device_id);
      if (list) list.push(row);
      else out.set(row.device_id, [row]);
    }
    return out;
  };
  const outagesOf = group(outages);
  const changesOf = group(slotChanges);
  const slotsOf = group(slotsNow);
  const usageOf = group(usage);
  const csqOf = new Map(signal.map((row) => [row.device_id, row.csq_mean]));
  const flashesOf = new Map(flashes.map((row) => [row.device_id, row.count]));

  const histories = devices.map((device): RouterHistory => {
    const lastContact = device.last_contact?.getTime() ?? null;
    const stored = (outagesOf.get(device.id) ?? []).map((o) => ({
      from: o.started.getTime(),
      to: o.ended.getTime(),
    }));
    // Silent now: the outage still going on, from the last contact (as the device page draws it).
    if (lastContact !== null && now.getTime() - lastContact > OUTAGE_MIN_MS)
      stored.push({ from: lastContact, to: now.getTime() });
    const hasReported = lastContact !== null || stored.length > 0;
    const modems = new Set([
      ...(changesOf.get(device.id) ?? []).map((c) => c.modem),
      ...(slotsOf.get(device.id) ?? []).map((s) => s.modem),
    ]);
    const backup = [...modems].flatMap((modem) =>
      backupStretches(
        (changesOf.get(device.id) ?? [])
          .filter((c) => c.modem === modem)
          .map((c) => ({ time: c.time.getTime(), from: c.from, to: c.to })),
        slotsOf.get(device.id)?.find((s) => s.modem === modem)?.slot ?? null,
      ),
    );
    return {
      observed: hasReported
        ? { from: Math.max(month.from.getTime(), device.create_time.getTime()), to: until.getTime() }
        : null,
      outages: stored,
      backup,
      csq: csqOf.get(device.id) ?? null,
      sims: (usageOf.get(device.id) ?? []).map(({ iccid, rx, tx }) => ({ iccid, rx, tx })),
      firmwareChanges: flashesOf.get(device.id) ?? 0,
    };
  });
  const figures: UptimeFigures[] = histories.map(routerFigures);
  const days = month.days.map((day) => {
    let observed = 0;
    let down = 0;
    for (const h of histories) {
      const part = downWithin(h, day);
      observed += part.observed;
      down += part.down;
    }
    return {
      day: DateTime.fromMillis(day.from, { zone }).toISODate() ?? "",
      from: day.from,
      connected_percent: percentOf(observed - down, observed),
    };
  });
  return {
    month: request.month,
    time_zone: zone,
    from: month.from.getTime(),
    to: month.to.getTime(),
    scope: request.scope,
    tag: request.scope === "tag" ? (request.tag ?? null) : null,
    totals: { ...totalFigures(figures), routers: devices.length },
    routers: devices.map((device, i) => ({
      _id: device.id,
      ident: device.ident,
      description: device.description,
      figures: figures[i] as UptimeFigures,
    })),
    days,
  };
}

/** The CSV's columns: one line per router, then one for the scope's routers together. */
export const UPTIME_CSV_COLUMNS = [
  "ident",
  "description",
  "connected_percent",
  "connected_hours",
  "observed_hours",
  "outages",
  "longest_outage_minutes",
  "outage_minutes",
  "backup_sim_minutes",
  "csq",
  "signal_quality",
  "sims",
  "rx_bytes",
  "tx_bytes",
  "firmware_changes",
] as const;

const hours = (ms: number) => Math.round((ms / 3_600_000) * 100) / 100;
const minutes = (ms: number) => Math.round((ms / 60_000) * 10) / 10;

function csvLine(ident: string, description: string, f: UptimeFigures) {
  return [
    ident,
    description,
    f.connected_percent ?? "",
    hours(f.connected_ms),
    hours(f.observed_ms),
    f.outages.count,
    minutes(f.outages.longest_ms),
    minutes(f.outages.total_ms),
    minutes(f.backup_sim_ms),
    f.signal.csq ?? "",
    f.signal.quality,
    f.sims.map((sim) => sim.iccid).join(" "),
    f.sims.reduce((sum, sim) => sum + sim.rx, 0),
    f.sims.reduce((sum, sim) => sum + sim.tx, 0),
    f.firmware_changes,
  ];
}

/** The report as CSV rows (the export mechanism of ADR 024): the routers, then the total line. */
export async function* exportUptimeRows(
  ctx: AppContext,
  session: SessionContext,
  request: UptimeReportRequest,
) {
  const report = await readUptimeReport(ctx, session, request);
  const lines = report.routers.map((router) => csvLine(router.ident, router.description, router.figures));
  lines.push(csvLine(`total (${report.totals.routers})`, report.tag ?? "", report.totals));
  for (let i = 0; i < lines.length; i += CSV_EXPORT_CHUNK) yield lines.slice(i, i + CSV_EXPORT_CHUNK);
}
