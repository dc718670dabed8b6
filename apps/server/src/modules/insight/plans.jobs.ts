import {
  billingPeriod,
  type DataPlan,
  type FleetEvent,
  isoDay,
  reachedThreshold,
  type ServerSocketMessage,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { Bus } from "../../platform/bus/bus";
import { domainTopic } from "../../platform/bus/bus";
import type { DB } from "../../platform/db/schema";
import type { NoPayload } from "../../platform/jobs/jobs";
import { toEventDto } from "../events/events.mapper";
import { usageRepo } from "./usage.repo";
import { effectivePlan } from "./usage.service";

/** The job kind that compares each SIM's period usage with its plan (every 10 minutes). */
export const DATA_PLAN_CHECK_JOB = "dataPlans.check";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "dataPlans.check": NoPayload;
  }
}
/** How often it runs. */
export const DATA_PLAN_CHECK_INTERVAL_MS = 10 * 60_000;
/** The kind of the event it raises (server-raised, beside the protocol's EVENT_KINDS). */
export const DATA_PLAN_EVENT_KIND = "data_plan_threshold";

const DAY_MS = 86_400_000;

/** What the check is given. */
export interface PlanCheckDeps {
  db: Kysely<DB>;
  bus: Bus;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
}

const gigabytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;

/**
 * Raises one event per SIM and billing period each time its usage crosses a threshold of its plan
 * (80 %, then 100 %): on the router the SIM is in now, warning at 80 and error at 100. What was
 * raised is kept per SIM (period and percent), so a period raises each threshold once however often
 * this runs. Answers the events raised.
 */
export async function checkDataPlans(deps: PlanCheckDeps): Promise<number> {
  const nowMs = deps.now().getTime();
  const since = isoDay(nowMs - 62 * DAY_MS);
  let raised = 0;
  for (const domainId of await usageRepo(deps.db).findDomainsWithPlansAcrossDomains()) {
    const alerts: FleetEvent[] = [];
    await deps.db.transaction().execute(async (trx) => {
      const repo = usageRepo(trx);
      const places = await repo.findLatestPlaces(domainId, since);
      const devices = new Map(
        (await repo.findDevicesBrief(domainId, [...new Set(places.map((p) => p.device_id))])).map((d) => [
          d.id,
          d,
        ]),
      );
      const cards = new Map(
        (
          await repo.findSimCards(
            domainId,
            places.map((p) => p.iccid),
          )
        ).map((c) => [c.iccid, c]),
      );
      const tagPlans = new Map<string, DataPlan>((await repo.findTagPlans(domainId)).map((p) => [p.tag, p]));
      const planned = places.flatMap((place) => {
        const device = devices.get(place.device_id);
        const plan = effectivePlan(cards.get(place.iccid)?.plan ?? null, device?.tags ?? [], tagPlans);
        return device && plan ? [{ place, device, plan, period: billingPeriod(nowMs, plan.reset_day) }] : [];
      });
      const used = await repo.sumUsageSince(
        domainId,
        planned.map(({ place, period }) => ({ iccid: place.iccid, start: period.start })),
      );
      for (const { place, device, plan, period } of planned) {
        const total = used.get(place.iccid) ?? 0;
        const percent = reachedThreshold(total, plan.plan_bytes);
        const card = cards.get(place.iccid);
        const before = card?.alerted_period === period.start ? card.alerted_percent : 0;
        if (percent <= before) continue;
        const row = await repo.insertDeviceEvent(domainId, {
          device_id: device.id,
          kind: DATA_PLAN_EVENT_KIND,
          level: percent >= 100 ? "error" : "warning",
          message: `SIM ${place.iccid} used ${percent}% of its plan: ${gigabytes(total)} of ${gigabytes(plan.plan_bytes)} since ${period.start}`,
          details: {
            iccid: place.iccid,
            percent,
            used_bytes: total,
            plan_bytes: plan.plan_bytes,
            period_start: period.start,
          },
          create_time: deps.now(),
        });
        await repo.recordAlert(domainId, place.iccid, period.start, percent);
        alerts.push(toEventDto(row, { id: device.id, ident: device.ident }));
      }
    });
    raised += alerts.length;
    if (alerts.length > 0) {
      // Best effort, after the commit: a browser that misses it reads the events again.
      const message: ServerSocketMessage = { type: "alerts", content: alerts };
      await deps.bus
        .publish(domainTopic(domainId), message)
        .catch((error: unknown) => deps.log.error({ err: error, domainId }, "data plan alert not pushed"));
    }
  }
  return raised;
}
