import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import { type DB, toJsonb } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { type DeviceCredentialsChangedPayload, OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { type DevicesRepo, devicesRepo } from "./devices.repo";
import type { BulkCandidate } from "./devices-bulk";

// Adding routers within the room the domain's device limit and the licences leave, and telling the
// broker's accounts when routers' credentials change: what creating, importing and enrolling share.

/**
 * Writes `device.credentials_changed` in the caller's transaction: these routers were created,
 * deleted or given another key, so the broker's accounts follow them (modules/broker-accounts, with
 * MQTT_DYNSEC; without it nobody subscribes and nothing is written).
 */
export async function emitCredentialsChanged(
  ctx: AppContext,
  trx: Kysely<DB>,
  domainId: string,
  idents: readonly string[],
): Promise<void> {
  if (idents.length === 0) return;
  const payload: DeviceCredentialsChangedPayload = { idents: [...idents] };
  await ctx.jobs.emit(trx, OUTBOX_EVENTS.deviceCredentialsChanged, { ...payload }, { domainId });
}

/** Room for more routers: in the domain (its device limit) and in the licences; null is unlimited. */
export interface DeviceRoom {
  domain: number | null;
  licence: number | null;
}

/**
 * The room for more routers as it is now, unlocked: what a dry run tells. Inserting checks again
 * under the locks ({@link insertDevicesWithinLimit}).
 */
export async function findDeviceRoom(ctx: AppContext, db: Kysely<DB>, domainId: string): Promise<DeviceRoom> {
  const repo = devicesRepo(db);
  const limit = (await repo.findDomainFleetSettings(domainId))?.device_limit ?? 0;
  const domain = limit > 0 ? Math.max(0, limit - (await repo.countDevices(domainId))) : null;
  const licence = await ctx.hooks.get("devices.licensedRoom")(db);
  return { domain, licence: licence === null ? null : Math.max(0, licence) };
}

/**
 * Inserts candidates in the caller's transaction, holding the domain row so two concurrent creations
 * cannot together pass the device limit (0 = unlimited) or the licences' (DEVICE_COUNT_LIMITED).
 * Answers the created ids by ident; an ident taken meanwhile is left out.
 */
export async function insertDevicesWithinLimit(
  ctx: AppContext,
  trx: Kysely<DB>,
  domainId: string,
  candidates: readonly BulkCandidate[],
): Promise<Map<string, string>> {
  const repo: DevicesRepo = devicesRepo(trx);
  const limit = await repo.lockDomainForDeviceCount(domainId);
  if (limit === undefined) throw new AppError("DEVICE_CREATE_ERROR", "The domain does not exist");
  await ctx.hooks.get("devices.deviceRoom")(trx, candidates.length);
  if (limit > 0) {
    const count = await repo.countDevices(domainId);
    if (count + candidates.length > limit) {
      throw new AppError(
        "DEVICE_COUNT_LIMITED",
        `The domain may hold at most ${limit} devices (${count} now)`,
      );
    }
  }
  const created = new Map<string, string>();
  const now = ctx.now();
  const rows = candidates.map((candidate) => {
    const id = randomUUID();
    created.set(candidate.ident, id);
    return {
      id,
      ident: candidate.ident,
      description: candidate.description,
      tags: toJsonb(candidate.tags),
      aes_key: candidate.aes_key,
      create_time: now,
      ...(candidate.position && {
        latitude: candidate.position.latitude,
        longitude: candidate.position.longitude,
        position_source: "admin" as const,
      }),
    };
  });
  const inserted = new Set(await repo.insertDevices(domainId, rows));
  for (const [ident, id] of created) if (!inserted.has(id)) created.delete(ident);
  await emitCredentialsChanged(ctx, trx, domainId, [...created.keys()]);
  return created;
}
