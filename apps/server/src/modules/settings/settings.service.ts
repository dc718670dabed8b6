import { type DomainSettings, EVENT_KINDS, type EventKind, type EventType } from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import type { NoPayload } from "../../platform/jobs/jobs";
import { requireDeviceDomain } from "../devices/devices.service";
import { listCountCache } from "../devices/list-count-cache";
import { enqueueStatusSweep } from "../devices-status/status-sweep.jobs";
import { enqueueDomainRetention } from "../files/files-queue";
import { settingsRepo } from "./settings.repo";

/**
 * The job kind queued, in the settings' transaction, when a domain's time zone changed: the
 * schedule rules register its handler (they recompute every active rule's next occurrence).
 */
export const DOMAIN_TIME_ZONE_CHANGED_JOB = "settings.timeZoneChanged";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "settings.timeZoneChanged": NoPayload;
  }
}

/** POST /api/settings/all: the domain's thresholds and copies. */
export async function getDomainSettings(ctx: AppContext, session: SessionContext): Promise<DomainSettings> {
  const domainId = requireDeviceDomain(session);
  const settings = await settingsRepo(ctx.db).findSettings(domainId);
  if (!settings) throw new AppError("DOMAIN_NOT_FOUND");
  return settings;
}

/**
 * PATCH /api/settings/domains-all: stores the settings (validated by the contract's schema). The
 * dashboard, the device list and the files' retention read them on their next query; the stored
 * statuses move by a sweep queued in the same transaction when a threshold changed, and the
 * routers' copies by retention queued in it when fewer are kept; a new time zone queues the
 * schedule rules' recomputation in it too (ADR 020).
 */
export async function saveDomainSettings(
  ctx: AppContext,
  session: SessionContext,
  settings: DomainSettings,
): Promise<DomainSettings> {
  const domainId = requireDeviceDomain(session);
  await ctx.jobs.transaction(async (trx) => {
    const repo = settingsRepo(trx);
    const before = await repo.findSettings(domainId);
    if (!before || !(await repo.saveSettings(domainId, settings))) throw new AppError("DOMAIN_NOT_FOUND");
    if (thresholdsChanged(before, settings)) await enqueueStatusSweep(ctx, trx, domainId);
    if (before.time_zone !== settings.time_zone)
      await ctx.jobs.enqueue(trx, { kind: DOMAIN_TIME_ZONE_CHANGED_JOB, domainId });
    for (const fileType of ["backup", "journal"] as const) {
      if (settings[fileType].copies < before[fileType].copies)
        await enqueueDomainRetention(ctx, trx, domainId, fileType);
    }
  });
  // The list and the dashboard keep the settings for a moment (ADR 005); this node forgets them once
  // the request commits, other nodes within the cache's 2 s.
  listCountCache.invalidate(domainId);
  return settings;
}

function thresholdsChanged(before: DomainSettings, after: DomainSettings): boolean {
  const minutes = (settings: DomainSettings, name: string) =>
    settings.status.find((entry) => entry.name === name)?.minutes;
  return after.status.some((entry) => minutes(before, entry.name) !== entry.minutes);
}

/**
 * The domain's IANA time zone, for any module that reads times of day in it (schedule rules, a
 * rollout's maintenance window): 'UTC' unless an admin chose one. Takes a transaction as `db` too.
 */
export async function findDomainTimeZone(ctx: Pick<AppContext, "db">, domainId: string): Promise<string> {
  const zone = await settingsRepo(ctx.db).findTimeZone(domainId);
  if (zone === undefined) throw new AppError("DOMAIN_NOT_FOUND");
  return zone;
}

/**
 * The domain's answer to firmware rollouts offered to it (ADR 031): whether it accepts them by
 * itself, and in which window. Takes a transaction as `db` too.
 */
export async function findDomainRolloutSettings(
  ctx: Pick<AppContext, "db">,
  domainId: string,
): Promise<DomainSettings["rollouts"]> {
  const settings = await settingsRepo(ctx.db).findSettings(domainId);
  if (!settings) throw new AppError("DOMAIN_NOT_FOUND");
  return settings.rollouts;
}

/** The domain's remote-access limits (ADR 038). Takes a transaction as `db` too. */
export async function findDomainRemoteAccess(
  ctx: Pick<AppContext, "db">,
  domainId: string,
): Promise<DomainSettings["remote_access"]> {
  const settings = await settingsRepo(ctx.db).findSettings(domainId);
  if (!settings) throw new AppError("DOMAIN_NOT_FOUND");
  return settings.remote_access;
}

/** POST /api/event_types: every event kind with its switch (active unless an admin turned it off). */
export async function listEventTypes(ctx: AppContext, session: SessionContext): Promise<EventType[]> {
  const domainId = requireDeviceDomain(session);
  const switches = await settingsRepo(ctx.db).findEventTypeSwitches(domainId);
  return EVENT_KINDS.map((kind) => ({ _id: kind, type: kind, active: switches.get(kind) ?? true }));
}

/** PATCH /api/event_type/{id}: switches one kind; an unknown kind is EVENT_NOT_FOUND. */
export async function setEventTypeActive(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  active: boolean,
): Promise<EventType> {
  const domainId = requireDeviceDomain(session);
  const kind = EVENT_KINDS.find((known) => known === id) as EventKind | undefined;
  if (!kind) throw new AppError("EVENT_NOT_FOUND", "No such event type");
  await settingsRepo(ctx.db).saveEventTypeActive(domainId, kind, active, ctx.now());
  return { _id: kind, type: kind, active };
}

/**
 * Whether events of a kind are 'new' in a domain: for features that raise events themselves (a
 * command needing approval), which store an inactive kind's event read, as ingest does.
 */
export async function isEventKindActive(
  db: AppContext["db"],
  domainId: string,
  kind: string,
): Promise<boolean> {
  return (await settingsRepo(db).findEventTypeSwitches(domainId)).get(kind) ?? true;
}
