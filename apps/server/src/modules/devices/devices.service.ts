import {
  type BulkCreateDevicesResult,
  type BulkLineResult,
  type CreateDeviceSchema,
  DEFAULT_DOMAIN_SETTINGS,
  type Device,
  type DevicePush,
  type DevicesMultipleResult,
  type DevicesMultipleSchema,
  type DevicesSocketMessage,
  type TagScope,
  type UpdateDeviceSchema,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { assertCan, tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import { domainTopic } from "../../platform/bus/bus";
import type { AppContext } from "../../platform/context";
import type { DB, DeviceRow } from "../../platform/db/schema";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { type DeviceUserActionPayload, OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { type DeviceDtoRow, type DevicePushRow, toDeviceDto, toDevicePush } from "./devices.mapper";
import { devicesRepo } from "./devices.repo";
import { type BulkCandidate, parseBulkDevices } from "./devices-bulk";
import { emitCredentialsChanged, insertDevicesWithinLimit } from "./devices-room";
import { listCountCache } from "./list-count-cache";

// What adding routers asks of the licences feature (above devices), which fills the hook.

declare module "../../platform/hooks" {
  interface Hooks {
    /**
     * Refuses routers beyond what the installation may hold (DEVICE_COUNT_LIMITED), inside the
     * caller's transaction that inserts `adding` of them.
     */
    "devices.deviceRoom": (trx: Kysely<DB>, adding: number) => Promise<void>;
    /** How many more routers the licences allow now (null: no licence limit); read without a lock. */
    "devices.licensedRoom": (db: Kysely<DB>) => Promise<number | null>;
  }
}

/** The outbox event of deleted routers: `{ domainId, deviceIds }` (the files feature subscribes). */
export const DEVICE_DELETED_EVENT = "device.deleted";

declare module "../../platform/jobs/outbox-events" {
  interface OutboxPayloads {
    "device.deleted": { domainId: string; deviceIds: string[] };
  }
}

/** The domain of a device view: superusers have none, so they have no device views at all. */
export function requireDeviceDomain(session: SessionContext): string {
  if (session.domainId === null) throw new AppError("PERMISSION_DENIED", "Superusers have no device views");
  return session.domainId;
}

/** The routers a session's device views reach: its domain, narrowed by its tag scope (ADR 041). */
export interface DeviceView {
  readonly domainId: string;
  readonly tagScope: TagScope;
  /** Prefixes cached counts, so only views of the same reach share them ("" for the whole domain). */
  readonly countKey: string;
}

/**
 * The domain rule and the tag rule together: every device view of a session starts here. The scope
 * is read from the session each call (the session cache forgets on every account change).
 */
export function requireDeviceView(session: SessionContext): DeviceView {
  const tagScope = tagScopeOf(session);
  return {
    domainId: requireDeviceDomain(session),
    tagScope,
    countKey: tagScope.length === 0 ? "" : `scope:${JSON.stringify(tagScope)}:`,
  };
}

/** The domain's status thresholds and the time a device's status is judged at. */
async function statusMoment(ctx: AppContext, domainId: string) {
  const domain = await devicesRepo(ctx.db).findDomainFleetSettings(domainId);
  return { settings: domain?.settings ?? DEFAULT_DOMAIN_SETTINGS, nowMs: ctx.now().getTime() };
}

/** Device DTOs of one viewer's rows at the current time under the domain's thresholds. */
export async function toDeviceDtos(
  ctx: AppContext,
  domainId: string,
  rows: readonly DeviceDtoRow[],
): Promise<Device[]> {
  if (rows.length === 0) return [];
  const { settings, nowMs } = await statusMoment(ctx, domainId);
  return rows.map((row) => toDeviceDto(row, settings, nowMs));
}

/** Pushed devices (no event count, ADR 025) of rows at the current time under the domain's thresholds. */
export async function toDevicePushes(
  ctx: AppContext,
  domainId: string,
  rows: readonly DevicePushRow[],
): Promise<DevicePush[]> {
  if (rows.length === 0) return [];
  const { settings, nowMs } = await statusMoment(ctx, domainId);
  return rows.map((row) => toDevicePush(row, settings, nowMs));
}

/** A device DTO as pushed to the whole domain: the answering user's event count stays out. */
function withoutEvents(device: DevicePush & { events?: number }): DevicePush {
  const { events: _events, ...push } = device;
  return push;
}

/**
 * After a device write: drops the domain's cached list totals and publishes the devices message to
 * the domain's sockets, both once the request's unit of work commits. Never fails the request.
 */
export async function publishDevices(
  ctx: AppContext,
  domainId: string,
  action: DevicesSocketMessage["action"],
  content: readonly DevicePush[],
): Promise<void> {
  listCountCache.invalidate(domainId);
  if (content.length === 0) return;
  const message: DevicesSocketMessage = { type: "devices", action, content: content.map(withoutEvents) };
  try {
    await ctx.bus.publish(domainTopic(domainId), message);
  } catch (error) {
    ctx.log.error({ err: error, domainId }, "publishing a devices message failed");
  }
}

/**
 * Writes the `device.user_action` outbox event in the caller's transaction: a person edited or
 * deleted these devices (notification rules watching actions hear of it once it committed).
 */
export async function emitUserAction(
  ctx: AppContext,
  trx: Kysely<DB>,
  session: SessionContext,
  domainId: string,
  action: DeviceUserActionPayload["action"],
  rows: readonly Pick<DeviceRow, "id" | "ident" | "tags">[],
): Promise<void> {
  if (rows.length === 0) return;
  const payload: DeviceUserActionPayload = {
    domain_id: domainId,
    action,
    author_id: session.user.id,
    author: session.user.username,
    devices: rows.map((row) => ({ id: row.id, ident: row.ident, tags: row.tags })),
  };
  await ctx.jobs.emit(trx, OUTBOX_EVENTS.deviceUserAction, { ...payload }, { domainId });
}

/** {@link insertDevicesWithinLimit} in a transaction of its own; a database failure answers DEVICE_CREATE_ERROR. */
async function insertWithinLimit(
  ctx: AppContext,
  domainId: string,
  candidates: readonly BulkCandidate[],
): Promise<Map<string, string>> {
  try {
    return await ctx.jobs.transaction((trx) => insertDevicesWithinLimit(ctx, trx, domainId, candidates));
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isUniqueViolation(error)) throw new AppError("DEVICE_ALREADY_EXIST");
    ctx.log.error({ err: error, domainId }, "creating devices failed");
    throw new AppError("DEVICE_CREATE_ERROR");
  }
}

/** POST /api/devices/new: one device; its ident must be free in the whole installation. */
export async function createDevice(
  ctx: AppContext,
  session: SessionContext,
  input: z.output<typeof CreateDeviceSchema>,
): Promise<Device> {
  const domainId = requireDeviceDomain(session);
  const repo = devicesRepo(ctx.db);
  if ((await repo.findTakenIdentsAcrossDomains([input.ident])).size > 0) {
    throw new AppError("DEVICE_ALREADY_EXIST", `A device ${input.ident} already exists`);
  }
  const candidate: BulkCandidate = {
    line: 1,
    ident: input.ident,
    description: input.description,
    tags: input.tags,
    aes_key: input.aes_key === "" ? null : input.aes_key.toUpperCase(),
  };
  const created = await insertWithinLimit(ctx, domainId, [candidate]);
  const id = created.get(input.ident);
  if (!id) throw new AppError("DEVICE_ALREADY_EXIST", `A device ${input.ident} already exists`);
  const row = await repo.findDeviceForViewer(domainId, id, session.user.id);
  const dtos = row ? await toDeviceDtos(ctx, domainId, [row]) : [];
  await publishDevices(ctx, domainId, "put", dtos);
  const device = dtos[0];
  if (!device) throw new AppError("DEVICE_CREATE_ERROR");
  return device;
}

/** POST /api/devices/bulk: every valid line is created; each line answers its own result. */
export async function createDevicesInBulk(
  ctx: AppContext,
  session: SessionContext,
  text: string,
): Promise<BulkCreateDevicesResult> {
  const domainId = requireDeviceDomain(session);
  const repo = devicesRepo(ctx.db);
  const { candidates, refused } = parseBulkDevices(text);
  const taken = await repo.findTakenIdentsAcrossDomains(candidates.map((candidate) => candidate.ident));
  const results: BulkLineResult[] = [...refused];
  const fresh = candidates.filter((candidate) => {
    if (!taken.has(candidate.ident)) return true;
    results.push({ line: candidate.line, ident: candidate.ident, result: "DEVICE_ALREADY_EXIST" });
    return false;
  });
  const created =
    fresh.length > 0 ? await insertWithinLimit(ctx, domainId, fresh) : new Map<string, string>();
  for (const candidate of fresh) {
    const id = created.get(candidate.ident);
    results.push(
      id
        ? { line: candidate.line, ident: candidate.ident, result: "created", _id: id }
        : { line: candidate.line, ident: candidate.ident, result: "DEVICE_ALREADY_EXIST" },
    );
  }
  results.sort((a, b) => a.line - b.line);
  if (created.size > 0) {
    const rows = await repo.findDevicesByIds(domainId, [...created.values()]);
    await publishDevices(ctx, domainId, "put", await toDevicePushes(ctx, domainId, rows));
  }
  return { created: created.size, failed: results.length - created.size, results };
}

/** POST /api/device/{dev_id}/edit: description, tags and key; a key is stored uppercase, "" removes it. */
export async function updateDevice(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
  input: z.output<typeof UpdateDeviceSchema>,
): Promise<Device> {
  const domainId = requireDeviceDomain(session);
  const row = await ctx.jobs.transaction(async (trx) => {
    const repo = devicesRepo(trx);
    const isFound = await repo.updateDevice(domainId, deviceId, {
      description: input.description,
      tags: input.tags,
      aes_key:
        input.aes_key === undefined ? undefined : input.aes_key === "" ? null : input.aes_key.toUpperCase(),
      position: input.position,
    });
    const updated = isFound ? await repo.findDeviceForViewer(domainId, deviceId, session.user.id) : undefined;
    if (updated) await emitUserAction(ctx, trx, session, domainId, "edit", [updated]);
    if (updated && input.aes_key !== undefined)
      await emitCredentialsChanged(ctx, trx, domainId, [updated.ident]);
    return updated;
  });
  if (!row) throw new AppError("DEVICE_NOT_FOUND");
  const dtos = await toDeviceDtos(ctx, domainId, [row]);
  await publishDevices(ctx, domainId, "update", dtos);
  return dtos[0] as Device;
}

/** DELETE /api/device/{dev_id} (admins). */
export async function deleteDevice(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
): Promise<void> {
  await changeDevices(ctx, session, { targets: [deviceId], action: "delete" });
}

/**
 * POST /api/devices/multiple/: tags added or removed, or devices deleted, all or none. Every target
 * must be one of the domain's devices; deleting needs an admin.
 */
export async function changeDevices(
  ctx: AppContext,
  session: SessionContext,
  input: z.output<typeof DevicesMultipleSchema>,
): Promise<DevicesMultipleResult> {
  const domainId = requireDeviceDomain(session);
  const targets = [...new Set(input.targets)];
  if (targets.length === 0) throw new AppError("TARGETS_NOT_SPECIFIED");
  // The route lets editors in; deleting is a separate action of the permission table.
  if (input.action === "delete") assertCan(session, "devices.delete");
  if (input.action !== "delete" && (!input.tags || input.tags.length === 0)) {
    throw new AppError("TAGS_MUST_BE_ARRAY", "Give the tags to add or remove");
  }
  const outcome = await ctx.jobs.transaction(async (trx) => {
    const repo = devicesRepo(trx);
    const rows = await repo.findDevicesByIds(domainId, targets);
    if (rows.length !== targets.length) throw new AppError("DEVICE_NOT_FOUND");
    await emitUserAction(ctx, trx, session, domainId, input.action === "delete" ? "delete" : "edit", rows);
    if (input.action === "delete") {
      await repo.deleteDevices(domainId, targets);
      // What else a router owns (its files) goes after the commit, through the outbox.
      await ctx.jobs.emit(trx, DEVICE_DELETED_EVENT, { domainId, deviceIds: targets }, { domainId });
      await emitCredentialsChanged(
        ctx,
        trx,
        domainId,
        rows.map((row) => row.ident),
      );
      return { affected: rows.length, rows };
    }
    const tags = input.tags ?? [];
    const affected =
      input.action === "add_tags"
        ? await repo.addTags(domainId, targets, tags)
        : await repo.removeTags(domainId, targets, tags);
    return { affected, rows: await repo.findDevicesByIds(domainId, targets) };
  });
  const pushes = await toDevicePushes(ctx, domainId, outcome.rows);
  await publishDevices(ctx, domainId, input.action === "delete" ? "delete" : "update", pushes);
  return { affected: outcome.affected };
}
