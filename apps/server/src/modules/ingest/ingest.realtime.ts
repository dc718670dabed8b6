import type { ServerSocketMessage } from "@cellfleet/contract";
import { type Bus, domainTopic } from "../../platform/bus/bus";
import type { DeviceRow, EventRow } from "../../platform/db/schema";
import { toDevicePush } from "../devices/devices.mapper";
import { listCountCache } from "../devices/list-count-cache";
import { toEventDto } from "../events/events.mapper";
import type { BatchPlan } from "./ingest.plan";
import type { IngestRepo } from "./ingest.repo";

/** What a committed batch wrote: the devices as they are now and the events that were new. */
export interface WrittenBatch {
  /** The devices whose row changed (a report within the contact granularity that changes no field of the row is not here). */
  touched: DeviceRow[];
  events: EventRow[];
  /** The ident of every device of the batch, by id: an event names its router even when the row did not change. */
  idents: ReadonlyMap<string, string>;
}

interface DomainMessages {
  devices: unknown[];
  collects: unknown[];
  alerts: unknown[];
}

/**
 * Pushes devices as they are now to the sockets of their domains: one `devices` update per domain
 * (the gateway's connection changes, ADR 032).
 */
export async function publishDevices(
  deps: { bus: Bus; now: () => Date },
  rows: readonly DeviceRow[],
  repo: Pick<IngestRepo, "findDomainSettingsAcrossDomains">,
): Promise<void> {
  if (rows.length === 0) return;
  const settings = await repo.findDomainSettingsAcrossDomains([...new Set(rows.map((row) => row.domain_id))]);
  const nowMs = deps.now().getTime();
  const byDomain = new Map<string, unknown[]>();
  for (const row of rows) {
    const domainSettings = settings.get(row.domain_id);
    if (!domainSettings) continue;
    const list = byDomain.get(row.domain_id) ?? [];
    list.push(toDevicePush(row, domainSettings, nowMs));
    byDomain.set(row.domain_id, list);
  }
  await Promise.all(
    [...byDomain].map(([domainId, content]) =>
      deps.bus.publish(domainTopic(domainId), { type: "devices", action: "update", content }),
    ),
  );
}

/**
 * Pushes a committed batch to the sockets of each device's domain: one `devices` update, one
 * `collects` and one `alerts` message per domain and batch, so a busy fleet does not flood sockets.
 * The DTOs are the ones HTTP answers with (same mappers). Collects and events go out whether or not
 * their router's row changed: a report a few seconds after the previous one, with the same signal,
 * changes no field of the row (the contact is rewritten every CONTACT_GRANULARITY_MS) but is news
 * for the router's open page.
 */
export async function publishBatch(
  deps: { bus: Bus; now: () => Date },
  written: WrittenBatch,
  plan: BatchPlan,
  repo: IngestRepo,
): Promise<void> {
  if (written.touched.length === 0 && plan.collects.length === 0 && written.events.length === 0) return;
  const domainIds = [...new Set(written.touched.map((row) => row.domain_id))];
  const settings = await repo.findDomainSettingsAcrossDomains(domainIds);
  const nowMs = deps.now().getTime();
  const byDomain = new Map<string, DomainMessages>();
  const slot = (domainId: string) => {
    let entry = byDomain.get(domainId);
    if (!entry) {
      entry = { devices: [], collects: [], alerts: [] };
      byDomain.set(domainId, entry);
    }
    return entry;
  };
  const placed = new Set(plan.touches.filter((touch) => touch.latitude !== null).map((touch) => touch.id));
  for (const row of written.touched) {
    // A GPS fix that moved a router: the map's clusters of its domain are built again (ADR 045).
    if (placed.has(row.id) && row.position_source === "gps") listCountCache.invalidate(row.domain_id);
    const domainSettings = settings.get(row.domain_id);
    if (!domainSettings) continue;
    slot(row.domain_id).devices.push(toDevicePush(row, domainSettings, nowMs));
  }
  for (const collect of plan.collects) {
    slot(collect.domain_id).collects.push({
      device_id: collect.device_id,
      type: collect.type,
      create_time: collect.create_time.getTime(),
      data: collect.data,
      // The report's own seq and device time, so a client (and the benchmark) can tell which report it is.
      seq: collect.seq,
      device_time: plan.collectTimes.get(`${collect.device_id}\u0000${collect.type}`) ?? null,
    });
  }
  for (const event of written.events) {
    const ident = event.device_id ? written.idents.get(event.device_id) : undefined;
    const device = event.device_id && ident ? { id: event.device_id, ident } : null;
    slot(event.domain_id).alerts.push(toEventDto(event, device));
  }
  const sends: Promise<void>[] = [];
  for (const [domainId, messages] of byDomain) {
    const topic = domainTopic(domainId);
    const out: ServerSocketMessage[] = [];
    if (messages.devices.length > 0)
      out.push({ type: "devices", action: "update", content: messages.devices });
    if (messages.collects.length > 0) out.push({ type: "collects", content: messages.collects });
    if (messages.alerts.length > 0) out.push({ type: "alerts", content: messages.alerts });
    for (const message of out) sends.push(deps.bus.publish(topic, message));
  }
  await Promise.all(sends);
}
