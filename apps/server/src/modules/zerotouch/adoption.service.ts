import type { AcceptAdoptionSchema, Adoption, AdoptionStatus } from "@cellfleet/contract";
import type { z } from "zod";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "../devices/devices.repo";
import { publishDevices, requireDeviceDomain, toDevicePushes } from "../devices/devices.service";
import { zeroTouchDeviceKey } from "./zerotouch.crypto";
import { enrolInTransaction } from "./zerotouch.enrol";
import { type AdoptionRow, zeroTouchRepo } from "./zerotouch.repo";

function toDto(row: AdoptionRow): Adoption {
  return {
    _id: row.id,
    ident: row.ident,
    model: row.model,
    serial: row.serial,
    imei: row.imei,
    status: row.status,
    config: row.config_id ? { _id: row.config_id, name: row.config_name ?? "" } : null,
    address: row.address,
    attempts: row.attempts,
    first_seen: row.first_seen.getTime(),
    last_seen: row.last_seen.getTime(),
    decided_by: row.decided_by,
    decided_time: row.decided_time?.getTime() ?? null,
    device_id: row.device_id,
  };
}

/** POST /api/zerotouch/adoptions: the domain's adoption list, the latest attempt first. */
export async function listAdoptions(
  ctx: AppContext,
  session: SessionContext,
  status: AdoptionStatus | "all",
): Promise<Adoption[]> {
  const domainId = requireDeviceDomain(session);
  return (await zeroTouchRepo(ctx.db).listAdoptions(domainId, status)).map(toDto);
}

async function answer(ctx: AppContext, domainId: string, id: string): Promise<Adoption> {
  const row = await zeroTouchRepo(ctx.db).findAdoption(domainId, id);
  if (!row) throw new AppError("DEVICE_NOT_FOUND", "No such router in the adoption list");
  return toDto(row);
}

/**
 * POST /api/zerotouch/adoption/{id}/accept: the router is created in the domain with the tags chosen
 * (and its configuration's template, unless declined), so its next connect gets in. A rejected one
 * may be accepted later; an accepted one is not accepted twice (OPERATION_IS_NOT_SUPPORTED).
 */
export async function acceptAdoption(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  input: z.output<typeof AcceptAdoptionSchema>,
): Promise<Adoption> {
  const domainId = requireDeviceDomain(session);
  const deviceId = await ctx.jobs.transaction(async (trx) => {
    const repo = zeroTouchRepo(trx);
    const row = await repo.lockAdoption(domainId, id);
    if (!row) throw new AppError("DEVICE_NOT_FOUND", "No such router in the adoption list");
    if (row.status === "accepted")
      throw new AppError("OPERATION_IS_NOT_SUPPORTED", "The router was accepted already");
    const config = row.config_id ? await repo.findConfig(domainId, row.config_id) : undefined;
    if (!config)
      throw new AppError(
        "RULE_NOT_FOUND",
        "The router's zero-touch configuration was deleted: its key cannot be derived",
      );
    const secret = ctx.secrets.open("zero-touch-secret", config.secret_sealed);
    const enrolled = await enrolInTransaction(ctx, trx, config, {
      ident: row.ident,
      model: row.model,
      serial: row.serial,
      imei: row.imei,
      aesKey: zeroTouchDeviceKey(secret, row.ident),
      tags: input.tags,
      applyTemplate: input.apply_template,
    });
    await repo.decideAdoption(domainId, id, {
      status: "accepted",
      decided_by: session.user.full_name || session.user.username,
      decided_time: ctx.now(),
      device_id: enrolled.deviceId,
    });
    return enrolled.deviceId;
  });
  const dtos = await toDevicePushes(
    ctx,
    domainId,
    await devicesRepo(ctx.db).findDevicesByIds(domainId, [deviceId]),
  );
  await publishDevices(ctx, domainId, "put", dtos);
  return answer(ctx, domainId, id);
}

/** POST /api/zerotouch/adoption/{id}/reject: the router is refused at every connect until accepted. */
export async function rejectAdoption(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<Adoption> {
  const domainId = requireDeviceDomain(session);
  await ctx.jobs.transaction(async (trx) => {
    const repo = zeroTouchRepo(trx);
    const row = await repo.lockAdoption(domainId, id);
    if (!row) throw new AppError("DEVICE_NOT_FOUND", "No such router in the adoption list");
    if (row.status === "accepted")
      throw new AppError(
        "OPERATION_IS_NOT_SUPPORTED",
        "An accepted router is deleted from the devices, not rejected",
      );
    await repo.decideAdoption(domainId, id, {
      status: "rejected",
      decided_by: session.user.full_name || session.user.username,
      decided_time: ctx.now(),
      device_id: null,
    });
  });
  return answer(ctx, domainId, id);
}
