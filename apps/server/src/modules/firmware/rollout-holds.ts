import {
  isInsideWindow,
  isOnBackupSim,
  isRoaming,
  linkWaitReason,
  type RolloutHold,
  type RolloutLinkReason,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { DateTime } from "luxon";
import type { DB } from "../../platform/db/schema";
import { findDomainTimeZone } from "../settings/settings.service";

// What holds a rollout's router back right before its fw_update (ADR 021): its domain's maintenance
// window, read in the domain's time zone, and its link as its latest reports say.

type Modem = { state: number; primary: boolean; sim: number; roaming?: boolean };

/** The modems of a stored `collect/modems` report; none when it is missing or not a list. */
export function modemsOf(data: unknown): Modem[] {
  const modems = (data as { modems?: unknown } | null)?.modems;
  return Array.isArray(modems) ? (modems as Modem[]) : [];
}

/** The link a router's latest reports show: the CSQ of its primary modem and its stored modems report. */
export function linkOf(report: { signal_csq: number | null; modems: unknown }) {
  const modems = modemsOf(report.modems);
  return { csq: report.signal_csq, isOnBackupSim: isOnBackupSim(modems), isRoaming: isRoaming(modems) };
}

/** Why the router's link should keep it waiting now (cell edge, backup SIM, roaming); null when good. */
export function linkHoldOf(report: { signal_csq: number | null; modems: unknown }): RolloutLinkReason | null {
  return linkWaitReason({ id: "", model: null, firmware: null, ...linkOf(report) });
}

/** The minute of the day `now` is in a time zone (an unknown zone reads as UTC). */
export function minuteOfDayIn(now: Date, timeZone: string): number {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  const at = local.isValid ? local : DateTime.fromJSDate(now, { zone: "UTC" });
  return at.hour * 60 + at.minute;
}

/**
 * Whether a domain's routers may be sent now: inside the window as read in that domain's time
 * zone; always without a window. Each domain's zone is read once per call of the answer.
 */
export function windowCheck(
  db: Kysely<DB>,
  window: { start: number; end: number } | null,
  now: Date,
): (domainId: string) => Promise<boolean> {
  const open = new Map<string, boolean>();
  return async (domainId) => {
    if (!window) return true;
    const known = open.get(domainId);
    if (known !== undefined) return known;
    // A domain gone since the plan has no zone: its routers are judged in UTC.
    const zone = await findDomainTimeZone({ db }, domainId).catch(() => "UTC");
    const isOpen = isInsideWindow(window, minuteOfDayIn(now, zone));
    open.set(domainId, isOpen);
    return isOpen;
  };
}

/** The hold of one waiting router now, or null to send it. */
export async function holdOf(
  isOpen: (domainId: string) => Promise<boolean>,
  target: { domain_id: string; signal_csq: number | null; modems: unknown },
): Promise<RolloutHold | null> {
  if (!(await isOpen(target.domain_id))) return "window";
  return linkHoldOf(target);
}
