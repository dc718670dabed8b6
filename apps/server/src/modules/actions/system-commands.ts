import { randomUUID } from "node:crypto";
import { renderTemplate, SETTINGS_COMMAND_TYPE } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import { type DB, toJsonb } from "../../platform/db/schema";
import { findUsedScript } from "../scripts/scripts.service";
import { commandsRepo, type TargetDevice } from "./commands.repo";
import { enqueuePump } from "./delivery.service";
import { executionsRepo } from "./executions.repo";
import { recountCommands } from "./executions.service";

/** Who a command made without a request is written for: the person whose setup asked for it. */
export interface SystemCommandAuthor {
  id: string;
  name: string;
  /** An admin's role (2): such a command needs no approval, as the admin's own would not. */
  role: 2;
}

/** What {@link createSettingsCommandInTransaction} did: the command id, or why there is none. */
export type SystemCommandResult = { ok: true; commandId: string } | { ok: false; reason: string };

/**
 * A settings command for one router, written inside the caller's transaction and queued for the
 * pump there (ADR 015): the zero-touch join and an accepted adoption send a configuration's template
 * this way. The template is rendered for the router as a person's command would render it; a
 * missing template or a variable without a value answers the reason and writes nothing.
 */
export async function createSettingsCommandInTransaction(
  ctx: Pick<AppContext, "jobs" | "now">,
  trx: Kysely<DB>,
  domainId: string,
  device: TargetDevice,
  templateId: string,
  author: SystemCommandAuthor,
): Promise<SystemCommandResult> {
  let used: Awaited<ReturnType<typeof findUsedScript>>;
  try {
    used = await findUsedScript(trx, domainId, "template", templateId);
  } catch {
    return { ok: false, reason: "the template no longer exists" };
  }
  const result = renderTemplate(used.text, used.values, {
    id: device.id,
    tags: device.tags,
    system: {
      ident: device.ident,
      model: device.model ?? "",
      serial: device.serial ?? "",
      firmware: device.firmware ?? "",
      description: device.description,
    },
  });
  if (!result.ok) return { ok: false, reason: `no value of ${result.missing.join(", ")}` };
  const now = ctx.now();
  const id = randomUUID();
  await commandsRepo(trx).insertCommand(domainId, {
    id,
    type: SETTINGS_COMMAND_TYPE,
    wire_type: "shell",
    args: toJsonb({}),
    file_id: null,
    script_id: used.id,
    script_kind: used.kind,
    script_name: used.name,
    script_version: used.version,
    targets: toJsonb({ devices: [device.id], tags: [], all: false }),
    status: "in_progress",
    needs_approval: false,
    author_id: author.id,
    author_name: author.name,
    author_role: author.role,
    author_is_junior: false,
    delayed_until: null,
    run_until: null,
    total: 1,
    counts: toJsonb({}),
    create_time: now,
    update_time: now,
  });
  await executionsRepo(trx).insertExecutions(domainId, [
    {
      id: randomUUID(),
      command_id: id,
      device_id: device.id,
      status: "queued",
      rendered: result.text,
      create_time: now,
      update_time: now,
    },
  ]);
  await recountCommands(trx, domainId, [id], now);
  await enqueuePump(ctx, trx, [device.id]);
  return { ok: true, commandId: id };
}

/**
 * A firmware update for one router, written inside the caller's transaction and queued for the
 * pump there: a rollout's (ADR 021). `fileKey` is a ready software rule's stored file, which the
 * transfer hooks let a router download; `version` is what the router reports once back.
 */
export async function createFirmwareCommandInTransaction(
  ctx: Pick<AppContext, "jobs" | "now">,
  trx: Kysely<DB>,
  domainId: string,
  deviceId: string,
  firmware: { fileKey: string; version: string; ruleName: string },
): Promise<{ commandId: string; executionId: string }> {
  const now = ctx.now();
  const id = randomUUID();
  const executionId = randomUUID();
  await commandsRepo(trx).insertCommand(domainId, {
    id,
    type: "fw_update",
    wire_type: "fw_update",
    args: toJsonb({ version: firmware.version }),
    file_id: firmware.fileKey,
    targets: toJsonb({ devices: [deviceId], tags: [], all: false }),
    status: "in_progress",
    needs_approval: false,
    author_id: "system",
    author_name: firmware.ruleName,
    author_role: 2,
    author_is_junior: false,
    delayed_until: null,
    run_until: null,
    total: 1,
    counts: toJsonb({}),
    create_time: now,
    update_time: now,
  });
  await executionsRepo(trx).insertExecutions(domainId, [
    {
      id: executionId,
      command_id: id,
      device_id: deviceId,
      status: "queued",
      rendered: null,
      create_time: now,
      update_time: now,
    },
  ]);
  await recountCommands(trx, domainId, [id], now);
  await enqueuePump(ctx, trx, [deviceId]);
  return { commandId: id, executionId };
}
