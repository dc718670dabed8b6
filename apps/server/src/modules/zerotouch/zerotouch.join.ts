import { randomUUID } from "node:crypto";
import { isProtocolIdent, matchesZeroTouch, parseZeroTouchUsername } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "../devices/devices.repo";
import { publishDevices, toDevicePushes } from "../devices/devices.service";
import type { DeviceAuthResult, ZeroTouchCheck } from "../ingest/device-auth";
import { hexEquals, zeroTouchDeviceKey, zeroTouchPassword } from "./zerotouch.crypto";
import { auditZeroTouch, enrolInTransaction } from "./zerotouch.enrol";
import { type ZeroTouchConfigRow, zeroTouchRepo } from "./zerotouch.repo";

const BAD_TOKEN: DeviceAuthResult = { ok: false, reason: "bad_token" };

/**
 * The gateway's zero-touch path (docs/device-protocol.md, "Zero-touch join"), asked for a CONNECT whose user name
 * is `zt1:…`: the password must be the HMAC of the configuration's secret; a router known already
 * gets in when its stored key is the one the secret derives; a new router that the configuration
 * matches is created at once (domain, tags, template command); any other waits in the adoption list
 * (refused until an admin accepts it), and a rejected one stays refused.
 */
export function createZeroTouchCheck(ctx: AppContext): ZeroTouchCheck {
  const repo = zeroTouchRepo(ctx.db);
  return async (ident, username, password, peer) => {
    const claims = username === undefined ? null : parseZeroTouchUsername(username);
    if (!claims || !username || !isProtocolIdent(ident)) return { ok: false, reason: "bad_username" };
    const config = await repo.findConfigByKeyIdAcrossDomains(claims.keyId);
    if (!config) return BAD_TOKEN;
    const secret = ctx.secrets.open("zero-touch-secret", config.secret_sealed);
    if (!hexEquals(zeroTouchPassword(secret, ident, username), password)) return BAD_TOKEN;
    const key = zeroTouchDeviceKey(secret, ident);
    const device = await repo.findDeviceByIdentAcrossDomains(ident);
    if (device) return device.aes_key?.toUpperCase() === key ? { ok: true } : BAD_TOKEN;

    const adoption = await repo.findAdoptionByIdentAcrossDomains(ident);
    const attempt = {
      id: randomUUID(),
      config_id: config.id,
      ident,
      model: claims.model,
      serial: claims.serial,
      imei: claims.imei,
      status: "pending" as const,
      address: peer?.address ?? null,
      first_seen: ctx.now(),
      last_seen: ctx.now(),
    };
    if (adoption && adoption.status !== "accepted") {
      await repo.recordAttempt(adoption.domain_id, attempt);
      return { ok: false, reason: adoption.status === "rejected" ? "adoption_rejected" : "adoption_pending" };
    }
    // No row, or accepted once and deleted since: the configuration decides again.
    if (config.active && matchesZeroTouch(config, claims)) {
      const joined = await join(ctx, config, { ...claims, ident, key }, peer?.address);
      if (joined) return { ok: true };
      const again = await repo.findDeviceByIdentAcrossDomains(ident);
      if (again) return again.aes_key?.toUpperCase() === key ? { ok: true } : BAD_TOKEN;
    }
    await ctx.jobs.transaction(async (trx) => {
      const repoInTrx = zeroTouchRepo(trx);
      if (adoption) await repoInTrx.decideAdoption(adoption.domain_id, adoption.id, pendingAgain);
      await repoInTrx.recordAttempt(config.domain_id, attempt);
      if (!adoption)
        await auditZeroTouch(ctx, trx, config.domain_id, "WAIT", peer?.address, {
          ident,
          config: config.name,
          model: claims.model,
          serial: claims.serial,
          imei: claims.imei,
        });
    });
    return { ok: false, reason: "adoption_pending" };
  };
}

const pendingAgain = { status: "pending", decided_by: null, decided_time: null, device_id: null } as const;

/**
 * Creates a matching router; false when it could not (its ident taken meanwhile, the domain full):
 * the caller then looks again or lets it wait in the adoption list.
 */
async function join(
  ctx: AppContext,
  config: ZeroTouchConfigRow,
  router: { ident: string; model: string; serial: string; imei: string; key: string },
  address: string | undefined,
): Promise<boolean> {
  let deviceId: string;
  try {
    deviceId = await ctx.jobs.transaction(async (trx) => {
      const enrolled = await enrolInTransaction(ctx, trx, config, {
        ident: router.ident,
        model: router.model,
        serial: router.serial,
        imei: router.imei,
        aesKey: router.key,
        tags: config.tags,
        applyTemplate: true,
      });
      await auditZeroTouch(ctx, trx, config.domain_id, "JOIN", address, {
        ident: router.ident,
        config: config.name,
        model: router.model,
        serial: router.serial,
        imei: router.imei,
        tags: config.tags,
        command: enrolled.command?.ok ? enrolled.command.commandId : (enrolled.command?.reason ?? null),
      });
      return enrolled.deviceId;
    });
  } catch (error) {
    if (error instanceof AppError || isUniqueViolation(error)) {
      ctx.log.warn({ ident: router.ident, err: error }, "zero-touch join did not create the router");
      return false;
    }
    throw error;
  }
  const dtos = await toDevicePushes(
    ctx,
    config.domain_id,
    await devicesRepo(ctx.db).findDevicesByIds(config.domain_id, [deviceId]),
  );
  await publishDevices(ctx, config.domain_id, "put", dtos);
  return true;
}
