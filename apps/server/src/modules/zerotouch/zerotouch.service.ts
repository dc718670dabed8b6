import { randomUUID } from "node:crypto";
import type { ZeroTouchConfig, ZeroTouchConfigInputSchema, ZeroTouchSecretAnswer } from "@cellfleet/contract";
import type { z } from "zod";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { toJsonb } from "../../platform/db/schema";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { requireDeviceDomain } from "../devices/devices.service";
import { scriptsRepo } from "../scripts/scripts.repo";
import { newZeroTouchSecret } from "./zerotouch.crypto";
import { type ZeroTouchConfigRow, zeroTouchRepo } from "./zerotouch.repo";

type ConfigInput = z.output<typeof ZeroTouchConfigInputSchema>;

function toDto(row: ZeroTouchConfigRow): ZeroTouchConfig {
  return {
    _id: row.id,
    name: row.name,
    active: row.active,
    key_id: row.key_id,
    tags: row.tags,
    template: row.template_id ? { _id: row.template_id, name: row.template_name ?? "" } : null,
    models: row.models,
    serial_ranges: row.serial_ranges,
    imei_ranges: row.imei_ranges,
    joined: row.joined,
    author: row.author_name,
    create_time: row.create_time.getTime(),
    update_time: row.update_time.getTime(),
  };
}

/** The template must be one of the domain's settings templates (COMMAND_TEMPLATE_MISSING otherwise). */
async function checkTemplate(ctx: AppContext, domainId: string, templateId: string | null): Promise<void> {
  if (templateId === null) return;
  const template = await scriptsRepo(ctx.db).find(domainId, "template", templateId);
  if (!template) throw new AppError("COMMAND_TEMPLATE_MISSING", "No such settings template in the domain");
}

async function findOrThrow(ctx: AppContext, domainId: string, id: string): Promise<ZeroTouchConfigRow> {
  const row = await zeroTouchRepo(ctx.db).findConfig(domainId, id);
  if (!row) throw new AppError("RULE_NOT_FOUND", "No such zero-touch configuration");
  return row;
}

function columns(input: ConfigInput) {
  return {
    name: input.name,
    active: input.active,
    tags: toJsonb(input.tags),
    template_id: input.template_id,
    models: toJsonb(input.models),
    serial_ranges: toJsonb(input.serial_ranges),
    imei_ranges: toJsonb(input.imei_ranges),
  };
}

/** POST /api/zerotouch/configs: the domain's configurations by name. */
export async function listConfigs(ctx: AppContext, session: SessionContext): Promise<ZeroTouchConfig[]> {
  const domainId = requireDeviceDomain(session);
  return (await zeroTouchRepo(ctx.db).listConfigs(domainId)).map(toDto);
}

/** POST /api/zerotouch/config/{id}: one configuration; another domain's is RULE_NOT_FOUND. */
export async function getConfig(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<ZeroTouchConfig> {
  return toDto(await findOrThrow(ctx, requireDeviceDomain(session), id));
}

/**
 * POST /api/zerotouch/config/new: a configuration with a new key id and secret. The secret is
 * answered this once and stored sealed; a lost one is replaced (a new secret), never shown again.
 */
export async function createConfig(
  ctx: AppContext,
  session: SessionContext,
  input: ConfigInput,
): Promise<ZeroTouchSecretAnswer> {
  const domainId = requireDeviceDomain(session);
  await checkTemplate(ctx, domainId, input.template_id);
  const { keyId, secret } = newZeroTouchSecret();
  const id = randomUUID();
  const now = ctx.now();
  try {
    await zeroTouchRepo(ctx.db).insertConfig(domainId, {
      id,
      ...columns(input),
      key_id: keyId,
      secret_sealed: ctx.secrets.seal("zero-touch-secret", secret),
      author_id: session.user.id,
      author_name: session.user.full_name || session.user.username,
      create_time: now,
      update_time: now,
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("RULE_ALREADY_EXISTS", "A configuration of this name exists");
    throw error;
  }
  return { config: toDto(await findOrThrow(ctx, domainId, id)), secret };
}

/** POST /api/zerotouch/config/{id}/save: new fields; the key id and secret stay. */
export async function saveConfig(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  input: ConfigInput,
): Promise<ZeroTouchConfig> {
  const domainId = requireDeviceDomain(session);
  await findOrThrow(ctx, domainId, id);
  await checkTemplate(ctx, domainId, input.template_id);
  try {
    await zeroTouchRepo(ctx.db).updateConfig(domainId, id, { ...columns(input), update_time: ctx.now() });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("RULE_ALREADY_EXISTS", "A configuration of this name exists");
    throw error;
  }
  return toDto(await findOrThrow(ctx, domainId, id));
}

/**
 * POST /api/zerotouch/config/{id}/secret: a new secret (answered once). Routers not yet joined need
 * it; joined ones connect with their own key and are not affected.
 */
export async function renewSecret(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<ZeroTouchSecretAnswer> {
  const domainId = requireDeviceDomain(session);
  await findOrThrow(ctx, domainId, id);
  const { secret } = newZeroTouchSecret();
  await zeroTouchRepo(ctx.db).updateConfig(domainId, id, {
    secret_sealed: ctx.secrets.seal("zero-touch-secret", secret),
    update_time: ctx.now(),
  });
  return { config: toDto(await findOrThrow(ctx, domainId, id)), secret };
}

/** DELETE /api/zerotouch/config/{id}: routers that joined through it stay. */
export async function deleteConfig(ctx: AppContext, session: SessionContext, id: string): Promise<void> {
  const domainId = requireDeviceDomain(session);
  if (!(await zeroTouchRepo(ctx.db).deleteConfig(domainId, id)))
    throw new AppError("RULE_NOT_FOUND", "No such zero-touch configuration");
}
