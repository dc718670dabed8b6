import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { auditRepo } from "../../platform/audit/audit.repo";
import type { AppContext } from "../../platform/context";
import { type DB, toJsonb } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { createSettingsCommandInTransaction, type SystemCommandResult } from "../actions/system-commands";
import { devicesRepo } from "../devices/devices.repo";
import { emitCredentialsChanged } from "../devices/devices-room";
import { assertLicensedDeviceRoom } from "../licences/licences.service";
import { type ZeroTouchConfigRow, zeroTouchRepo } from "./zerotouch.repo";

/** A router to be created from a configuration: its ident, what it claimed, and the key it derived. */
export interface EnrolCandidate {
  ident: string;
  model: string;
  serial: string;
  imei: string;
  /** The router's 64-hex key (zeroTouchDeviceKey), so its later connects need no zero-touch form. */
  aesKey: string;
  tags: readonly string[];
  /** Send the configuration's template as a settings command. */
  applyTemplate: boolean;
}

/** What enrolling did: the new device, and the template command or why there is none. */
export interface Enrolled {
  deviceId: string;
  command: SystemCommandResult | null;
}

/**
 * Creates the router in the configuration's domain inside the caller's transaction: under the
 * domain's device limit and the licensed count (DEVICE_COUNT_LIMITED), with the tags, the key and the configuration it came
 * through; the broker accounts follow (device.credentials_changed), the configuration's count grows,
 * and its template goes out as a settings command written for the configuration's author. An ident
 * taken meanwhile is DEVICE_ALREADY_EXIST.
 */
export async function enrolInTransaction(
  ctx: AppContext,
  trx: Kysely<DB>,
  config: ZeroTouchConfigRow,
  candidate: EnrolCandidate,
): Promise<Enrolled> {
  const domainId = config.domain_id;
  const devices = devicesRepo(trx);
  const limit = await devices.lockDomainForDeviceCount(domainId);
  if (limit === undefined) throw new AppError("DOMAIN_NOT_FOUND");
  await assertLicensedDeviceRoom(ctx, trx, 1);
  if (limit > 0 && (await devices.countDevices(domainId)) >= limit)
    throw new AppError("DEVICE_COUNT_LIMITED", `The domain may hold at most ${limit} devices`);
  const deviceId = randomUUID();
  const now = ctx.now();
  const inserted = await devices.insertDevices(domainId, [
    {
      id: deviceId,
      ident: candidate.ident,
      description: "",
      tags: toJsonb([...candidate.tags]),
      aes_key: candidate.aesKey,
      model: candidate.model || null,
      serial: candidate.serial || null,
      zero_touch_config_id: config.id,
      create_time: now,
    },
  ]);
  if (inserted.length === 0)
    throw new AppError("DEVICE_ALREADY_EXIST", `A device ${candidate.ident} already exists`);
  await emitCredentialsChanged(ctx, trx, domainId, [candidate.ident]);
  await zeroTouchRepo(trx).countJoined(domainId, config.id);
  let command: SystemCommandResult | null = null;
  if (candidate.applyTemplate && config.template_id)
    command = await createSettingsCommandInTransaction(
      ctx,
      trx,
      domainId,
      {
        id: deviceId,
        ident: candidate.ident,
        tags: [...candidate.tags],
        last_contact: null,
        connected: null,
        model: candidate.model || null,
        serial: candidate.serial || null,
        firmware: null,
        description: "",
        command_types: null,
      },
      config.template_id,
      { id: config.author_id, name: `${config.author_name} (zero-touch: ${config.name})`, role: 2 },
    );
  return { deviceId, command };
}

/** An audit-log entry of the zero-touch path itself (no person acted): JOIN_zerotouch, WAIT_zerotouch. */
export async function auditZeroTouch(
  ctx: AppContext,
  db: Kysely<DB>,
  domainId: string,
  action: "JOIN" | "WAIT",
  address: string | undefined,
  info: Record<string, unknown>,
): Promise<void> {
  await auditRepo(db).insertWebAction(domainId, {
    authorId: null,
    author: "zero-touch",
    action: `${action}_zerotouch`,
    status: "SUCCESS",
    createTime: ctx.now(),
    clientIp: address ?? null,
    info,
    kind: action === "JOIN" ? "zeroTouch.join" : "zeroTouch.wait",
    object: {
      type: "device",
      id: null,
      name: typeof info.ident === "string" ? info.ident : null,
      count: null,
    },
    viaToken: null,
  });
}
