import {
  billingPeriod,
  type DataPlan,
  type DeviceUsage,
  daysBetween,
  isoDay,
  type ModemReport,
  type SimUsage,
} from "@cellfleet/contract";
import { assertCan, tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "../devices/devices.repo";
import { requireDeviceDomain } from "../devices/devices.service";
import { type UsageDayRow, usageRepo } from "./usage.repo";

const DAY_MS = 86_400_000;
/** Days of bars the device page shows. */
export const USAGE_DAYS = 31;

/** A SIM's plan: its own, else the plan of the first of its router's tags that has one. */
export function effectivePlan(
  own: DataPlan | null,
  deviceTags: readonly string[],
  tagPlans: ReadonlyMap<string, DataPlan>,
): SimUsage["plan"] {
  if (own) return { ...own, source: "sim" };
  for (const tag of deviceTags) {
    const plan = tagPlans.get(tag);
    if (plan) return { ...plan, source: "tag", tag };
  }
  return null;
}

/** The modems of the device's latest modems report, or none. */
function currentModems(collects: ReadonlyArray<{ type: string; data: unknown }>): ModemReport[] {
  const data = collects.find((collect) => collect.type === "modems")?.data as
    | { modems?: unknown }
    | undefined;
  return Array.isArray(data?.modems) ? (data.modems as ModemReport[]) : [];
}

/**
 * POST /api/device/{dev_id}/usage: every SIM the router held in the last 31 days or holds now, each
 * with its daily bytes (wherever it was), its current billing period and its plan.
 */
export async function readDeviceUsage(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
): Promise<DeviceUsage> {
  const domainId = requireDeviceDomain(session);
  const devices = devicesRepo(ctx.db);
  const device = await devices.findDevice(domainId, deviceId);
  if (!device) throw new AppError("DEVICE_NOT_FOUND");
  const repo = usageRepo(ctx.db);
  const nowMs = ctx.now().getTime();
  const firstBar = isoDay(nowMs - (USAGE_DAYS - 1) * DAY_MS);
  // A period starts at most a month back: read two months so the period's total is whole.
  const firstRead = isoDay(nowMs - 2 * USAGE_DAYS * DAY_MS);
  const modemsNow = currentModems(await devices.findCollects(domainId, deviceId)).filter((m) => m.iccid);
  const iccids = [
    ...new Set([
      ...modemsNow.map((m) => m.iccid as string),
      ...(await repo.findDeviceIccids(domainId, deviceId, firstBar)),
    ]),
  ];
  if (iccids.length === 0) return { sims: [] };
  const [days, cards, tagPlanList] = await Promise.all([
    repo.findUsageDays(domainId, iccids, firstRead, tagScopeOf(session)),
    repo.findSimCards(domainId, iccids),
    repo.findTagPlans(domainId),
  ]);
  const latest = new Map<string, UsageDayRow>();
  for (const row of days) latest.set(row.iccid, row);
  const holders = await repo.findDevicesBrief(domainId, [
    ...new Set([...latest.values()].map((row) => row.device_id)),
  ]);
  const holderById = new Map(holders.map((holder) => [holder.id, holder]));
  const ownPlans = new Map(cards.map((card) => [card.iccid, card.plan]));
  const tagPlans = new Map(tagPlanList.map((plan) => [plan.tag, plan]));
  const bars = daysBetween(firstBar, isoDay(nowMs + DAY_MS));

  const sims = iccids.map((iccid): SimUsage => {
    const here = modemsNow.find((modem) => modem.iccid === iccid);
    const last = latest.get(iccid);
    const holder = here ? device : last ? holderById.get(last.device_id) : undefined;
    const plan = effectivePlan(ownPlans.get(iccid) ?? null, holder?.tags ?? [], tagPlans);
    const period = billingPeriod(nowMs, plan?.reset_day ?? 1);
    const own = days.filter((row) => row.iccid === iccid);
    const inPeriod = own.filter((row) => row.day >= period.start && row.day < period.end);
    const rx = inPeriod.reduce((sum, row) => sum + row.rx, 0);
    const tx = inPeriod.reduce((sum, row) => sum + row.tx, 0);
    // A day's bars add up every router the SIM was in that day.
    const byDay = new Map<string, { rx: number; tx: number }>();
    for (const row of own) {
      const day = byDay.get(row.day) ?? { rx: 0, tx: 0 };
      byDay.set(row.day, { rx: day.rx + row.rx, tx: day.tx + row.tx });
    }
    return {
      iccid,
      device: holder ? { _id: holder.id, ident: holder.ident } : { _id: device.id, ident: device.ident },
      modem: here?.id ?? last?.modem ?? "",
      slot: here?.sim ?? last?.slot ?? 0,
      operator: here?.operator ?? null,
      last_seen: here ? (device.last_contact?.getTime() ?? nowMs) : (last?.seen.getTime() ?? nowMs),
      is_here: Boolean(here) || (modemsNow.length === 0 && last?.device_id === device.id),
      days: bars.map((day) => ({ day, rx: byDay.get(day)?.rx ?? 0, tx: byDay.get(day)?.tx ?? 0 })),
      period: { ...period, rx, tx },
      plan,
      percent: plan ? Math.round(((rx + tx) / plan.plan_bytes) * 1000) / 10 : null,
    };
  });
  sims.sort((a, b) => Number(b.is_here) - Number(a.is_here) || b.last_seen - a.last_seen);
  return { sims };
}

/** POST /api/sim/{iccid}/plan (admins): a SIM's own plan, or none (then its router's tags decide). */
export async function setSimPlan(
  ctx: AppContext,
  session: SessionContext,
  iccid: string,
  plan: DataPlan | null,
): Promise<void> {
  const domainId = requireDeviceDomain(session);
  assertCan(session, "dataPlans.edit");
  await usageRepo(ctx.db).setSimPlan(domainId, iccid, plan);
}

/** POST /api/plans/tag (admins): the plan of every SIM in a router with the tag, or none. */
export async function setTagPlan(
  ctx: AppContext,
  session: SessionContext,
  tag: string,
  plan: DataPlan | null,
): Promise<Array<DataPlan & { tag: string }>> {
  const domainId = requireDeviceDomain(session);
  assertCan(session, "dataPlans.edit");
  const repo = usageRepo(ctx.db);
  await repo.setTagPlan(domainId, tag, plan);
  return repo.findTagPlans(domainId);
}

/** POST /api/plans: the domain's tag plans. */
export async function listTagPlans(
  ctx: AppContext,
  session: SessionContext,
): Promise<Array<DataPlan & { tag: string }>> {
  return usageRepo(ctx.db).findTagPlans(requireDeviceDomain(session));
}
