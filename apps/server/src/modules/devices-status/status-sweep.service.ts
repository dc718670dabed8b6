import { computeDeviceStatus, type ServerSocketMessage } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { type Bus, domainTopic } from "../../platform/bus/bus";
import type { DB } from "../../platform/db/schema";
import { toDeviceDto } from "../devices/devices.mapper";
import { statusSweepRepo } from "./status-sweep.repo";

/** How often the sweep runs (spec: every 15–30 s) and how many devices one run handles at most. */
export const STATUS_SWEEP_INTERVAL_MS = 20_000;
const SWEEP_BATCH = 5000;

/** What the sweep needs. */
export interface StatusSweepDeps {
  db: Kysely<DB>;
  bus: Bus;
  now: () => Date;
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
  const changes: Array<{ id: string; status: string }> = [];
  const byDomain = new Map<string, unknown[]>();
  for (const row of candidates) {
    const contact = row.last_contact === null ? null : row.last_contact.getTime();
    const status = computeDeviceStatus(contact, nowMs, row.settings.status);
    if (status === row.last_status) continue;
    changes.push({ id: row.id, status });
    const list = byDomain.get(row.domain_id) ?? [];
    list.push(toDeviceDto(row, row.settings, nowMs));
    byDomain.set(row.domain_id, list);
  }
  await repo.updateLastStatusesAcrossDomains(changes);
  await Promise.all(
    [...byDomain].map(([domainId, content]) => {
      const message: ServerSocketMessage = { type: "devices", action: "update", content };
      return deps.bus.publish(domainTopic(domainId), message);
    }),
  );
  return changes.length;
}
