import { computeDeviceStatus, type ServerSocketMessage } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { type Bus, domainTopic } from "../../platform/bus/bus";
import type { DB } from "../../platform/db/schema";
import type { Jobs } from "../../platform/jobs/jobs";
import { type DeviceStatusChangedPayload, OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { toDevicePush } from "../devices/devices.mapper";
import { statusSweepRepo } from "./status-sweep.repo";

/** How often the sweep runs (spec: every 15–30 s) and how many devices one run handles at most. */
export const STATUS_SWEEP_INTERVAL_MS = 20_000;
const SWEEP_BATCH = 5000;

/** What the sweep needs. */
export interface StatusSweepDeps {
  db: Kysely<DB>;
  bus: Bus;
  now: () => Date;
  /**
   * The outbox: the new statuses and a `device.status_changed` event commit together, so a
   * notification rule hears of every change exactly when it is stored. Optional for tests of the
   * sweep alone.
   */
  jobs?: Jobs;
}

/**
 * Finds devices that crossed a status threshold since the last run (spec section 4), stores their
 * new status and pushes `devices` updates to each domain's sockets. Status stays computed at read
 * time everywhere; last_status only lets the sweep notice the crossing. Answers how many changed.
 */
export async function runStatusSweep(deps: StatusSweepDeps): Promise<number> {
  const repo = statusSweepRepo(deps.db);
  const now = deps.now();
  const nowMs = now.getTime();
  const candidates = await repo.findStatusChangesAcrossDomains(now, SWEEP_BATCH);
  const changes: Array<{ id: string; status: string; from: string }> = [];
  const byDomain = new Map<string, unknown[]>();
  for (const row of candidates) {
    const contact = row.last_contact === null ? null : row.last_contact.getTime();
    const status = computeDeviceStatus(contact, nowMs, row.settings.status);
    if (status === row.last_status) continue;
    changes.push({ id: row.id, status, from: row.last_status });
    const list = byDomain.get(row.domain_id) ?? [];
    list.push(toDevicePush(row, row.settings, nowMs));
    byDomain.set(row.domain_id, list);
  }
  if (changes.length > 0) {
    await deps.db.transaction().execute(async (trx) => {
      await statusSweepRepo(trx).updateLastStatusesAcrossDomains(changes);
      const payload: DeviceStatusChangedPayload = {
        changes: changes.map((change) => ({ device_id: change.id, from: change.from, to: change.status })),
      };
      await deps.jobs?.emit(trx, OUTBOX_EVENTS.deviceStatusChanged, { ...payload });
    });
    deps.jobs?.wake();
  }
  await Promise.all(
    [...byDomain].map(([domainId, content]) => {
      const message: ServerSocketMessage = { type: "devices", action: "update", content };
      return deps.bus.publish(domainTopic(domainId), message);
    }),
  );
  return changes.length;
}
