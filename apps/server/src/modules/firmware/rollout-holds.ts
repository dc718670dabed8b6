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

// What holds a rollout's router back right before its fw_update (ADR 021): its domain's answer to
// the offer (ADR 031), the maintenance windows, read in the domain's time zone, and its link as its
// latest reports say.

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

/** What the driver reads of a domain's answer to the rollout (ADR 031). */
export interface DomainAnswer {
  state: string;
  window_start: number | null;
  window_end: number | null;
}

/** Why a domain's routers may not be sent now: not accepted, or outside a window; null when they may. */
export type DomainHold = "offer" | "window" | null;

/**
 * Whether a domain's routers may be sent now (ADR 031): only once the domain accepted the rollout
 * (no answer, or a decline, holds them: this is where "nothing reaches a domain that has not
 * accepted" is kept, right before each send), and then inside the rollout's window and the window
 * the domain chose, both read in that domain's time zone; always without windows. Each domain's
 * zone is read once per call of the answer.
 */
export function domainCheck(
  db: Kysely<DB>,
  answers: ReadonlyMap<string, DomainAnswer>,
  window: { start: number; end: number } | null,
  now: Date,
): (domainId: string) => Promise<DomainHold> {
  const holds = new Map<string, DomainHold>();
  return async (domainId) => {
    const known = holds.get(domainId);
    if (known !== undefined) return known;
    const answer = answers.get(domainId);
    let hold: DomainHold = null;
    if (answer?.state !== "accepted") hold = "offer";
    else {
      const own =
        answer.window_start === null || answer.window_end === null
          ? null
          : { start: answer.window_start, end: answer.window_end };
      if (window || own) {
        // A domain gone since the plan has no zone: its routers are judged in UTC.
        const zone = await findDomainTimeZone({ db }, domainId).catch(() => "UTC");
        const minute = minuteOfDayIn(now, zone);
        if (!isInsideWindow(window, minute) || !isInsideWindow(own, minute)) hold = "window";
      }
    }
    holds.set(domainId, hold);
    return hold;
  };
}

/** The hold of one waiting router now, or null to send it. */
export async function holdOf(
  check: (domainId: string) => Promise<DomainHold>,
  target: { domain_id: string; signal_csq: number | null; modems: unknown },
): Promise<RolloutHold | null> {
  return (await check(target.domain_id)) ?? linkHoldOf(target);
}
