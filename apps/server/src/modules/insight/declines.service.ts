import {
  SIGNAL_DECLINE_MIN_DB,
  SIGNAL_DECLINES_LIMIT,
  type SignalDecline,
  signalQualityOf,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { requireDeviceView } from "../devices/devices.service";
import { declinesRepo, type SignalWindowsRow } from "./declines.repo";
import { maintenanceRepo } from "./maintenance.repo";

const DAY_MS = 86_400_000;
const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The routers whose signal fell most: per modem, the mean of the last 24 rolled-up hours against
 * the 24 before, in RSRP (RSSI for a modem without RSRP, 2G/3G); a drop of at least
 * SIGNAL_DECLINE_MIN_DB, one line per router (its worst modem), the largest drop first.
 */
export function rankDeclines(rows: readonly SignalWindowsRow[]): SignalDecline[] {
  const byDevice = new Map<string, SignalDecline>();
  for (const row of rows) {
    const metric = row.rsrp_now !== null && row.rsrp_before !== null ? "rsrp" : "rssi";
    const now = metric === "rsrp" ? row.rsrp_now : row.rssi_now;
    const before = metric === "rsrp" ? row.rsrp_before : row.rssi_before;
    if (now === null || before === null) continue;
    const change = Number(now) - Number(before);
    if (change > -SIGNAL_DECLINE_MIN_DB) continue;
    const decline: SignalDecline = {
      _id: row.device_id,
      ident: row.ident,
      modem: row.modem,
      metric,
      now: round1(Number(now)),
      before: round1(Number(before)),
      change: round1(change),
      quality: signalQualityOf(metric, Number(now)),
    };
    const known = byDevice.get(row.device_id);
    if (!known || decline.change < known.change) byDevice.set(row.device_id, decline);
  }
  return [...byDevice.values()].sort((a, b) => a.change - b.change).slice(0, SIGNAL_DECLINES_LIMIT);
}

/** POST /api/dashboard/signal: the routers whose signal got worse in the last 24 hours. */
export async function readSignalDeclines(
  ctx: AppContext,
  session: SessionContext,
): Promise<{ devices: SignalDecline[] }> {
  const { domainId, tagScope } = requireDeviceView(session);
  const mark = await maintenanceRepo(ctx.db).findRollupMark();
  if (!mark) return { devices: [] };
  const end = mark.getTime();
  const rows = await declinesRepo(ctx.db).findSignalWindows(
    domainId,
    new Date(end - 2 * DAY_MS),
    new Date(end - DAY_MS),
    mark,
    tagScope,
  );
  return { devices: rankDeclines(rows) };
}
