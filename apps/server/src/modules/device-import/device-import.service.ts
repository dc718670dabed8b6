import {
  DEVICE_IMPORT_GENERATE_KEY,
  type DeviceImportPlan,
  type DeviceImportResult,
  generateDeviceKey,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { assertCan } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { toCsv } from "../../platform/http/csv";
import { devicesRepo } from "../devices/devices.repo";
import {
  emitUserAction,
  publishDevices,
  requireDeviceDomain,
  toDevicePushes,
} from "../devices/devices.service";
import type { BulkCandidate } from "../devices/devices-bulk";
import { emitCredentialsChanged, findDeviceRoom, insertDevicesWithinLimit } from "../devices/devices-room";
import { type ImportFileRow, type ImportUpload, readImportFile } from "./device-import.file";
import { type ImportPlan, identsOfRows, planImport } from "./device-import.plan";

/** Routers pushed to the domain's sockets in one message. */
const PUSH_CHUNK = 1000;

/** The plan of the file's rows against what `db` (the pool, or the apply's transaction) holds now. */
async function planAgainst(
  ctx: AppContext,
  db: Kysely<DB>,
  domainId: string,
  rows: readonly ImportFileRow[],
): Promise<ImportPlan> {
  const repo = devicesRepo(db);
  const idents = identsOfRows(rows);
  const targets = await repo.findImportTargets(domainId, idents);
  return planImport(rows, {
    targets: new Map(targets.map((target) => [target.ident, target])),
    taken: await repo.findTakenIdentsAcrossDomains(idents),
    room: await findDeviceRoom(ctx, db, domainId),
  });
}

/** POST /api/devices/import/check (admins): what the file would do; nothing is written. */
export async function checkDeviceImport(
  ctx: AppContext,
  session: SessionContext,
  upload: ImportUpload | null,
): Promise<DeviceImportPlan> {
  const domainId = requireDeviceDomain(session);
  if (!upload) throw new AppError("NOTHING_TO_UPLOAD", "Send the file in the multipart field `file`");
  const rows = await readImportFile(upload);
  return (await planAgainst(ctx, ctx.db, domainId, rows)).answer;
}

/** Replaces `generate` with a new key, remembered to be answered once. */
function keyOf(key: string | undefined, ident: string, made: DeviceImportResult["keys"]): string | null {
  if (key !== DEVICE_IMPORT_GENERATE_KEY) return key ?? null;
  const generated = generateDeviceKey();
  made.push({ ident, key: generated });
  return generated;
}

/** The import's writes inside its transaction; answers the created and changed router ids. */
async function applyPlan(
  ctx: AppContext,
  trx: Kysely<DB>,
  session: SessionContext,
  domainId: string,
  plan: ImportPlan,
  keys: DeviceImportResult["keys"],
): Promise<{ created: string[]; changed: string[] }> {
  const candidates: BulkCandidate[] = plan.creates.map((values) => ({
    line: values.line,
    ident: values.ident,
    description: values.description ?? "",
    tags: values.tags ?? [],
    aes_key: keyOf(values.key, values.ident, keys),
    ...(values.position && { position: values.position }),
  }));
  const created = await insertDevicesWithinLimit(ctx, trx, domainId, candidates);
  // An ident taken since the plan was read: all or nothing, so the whole import is refused.
  if (created.size !== candidates.length)
    throw new AppError("DEVICE_ALREADY_EXIST", "A router was added meanwhile");
  const repo = devicesRepo(trx);
  await repo.updateImportedDevices(
    domainId,
    plan.changes.map(({ values, target, fields }) => ({
      id: target.id,
      description: fields.includes("description") ? (values.description ?? null) : null,
      tags: fields.includes("tags") ? (values.tags ?? null) : null,
      aes_key: fields.includes("key") ? keyOf(values.key, values.ident, keys) : null,
      latitude: fields.includes("position") ? (values.position?.latitude ?? null) : null,
      longitude: fields.includes("position") ? (values.position?.longitude ?? null) : null,
    })),
  );
  const rekeyed = plan.changes
    .filter((change) => change.fields.includes("key"))
    .map((change) => change.values.ident);
  await emitCredentialsChanged(ctx, trx, domainId, rekeyed);
  const changed = plan.changes.map((change) => change.target);
  await emitUserAction(ctx, trx, session, domainId, "edit", changed);
  return { created: [...created.values()], changed: changed.map((target) => target.id) };
}

/** Tells the domain's sockets of the routers, in messages of a bounded size. */
async function publishImported(
  ctx: AppContext,
  domainId: string,
  action: "put" | "update",
  ids: readonly string[],
): Promise<void> {
  const repo = devicesRepo(ctx.db);
  for (let start = 0; start < ids.length; start += PUSH_CHUNK) {
    const rows = await repo.findDevicesByIds(domainId, ids.slice(start, start + PUSH_CHUNK));
    await publishDevices(ctx, domainId, action, await toDevicePushes(ctx, domainId, rows));
  }
}

/**
 * POST /api/devices/import/{plan} (admins): the file's plan, read again inside one transaction
 * that holds the domain row; when it is no longer the plan the dry run showed (another file, or
 * the fleet changed) nothing is written (BAD_REQUEST, 409). Refused rows are left out; every other
 * row is written, or none. Generated keys are answered this once.
 */
export async function applyDeviceImport(
  ctx: AppContext,
  session: SessionContext,
  planId: string,
  upload: ImportUpload | null,
): Promise<DeviceImportResult> {
  const domainId = requireDeviceDomain(session);
  // Applying is the checked plan written: whoever may not check it (a caller limited to tags, whose
  // file may name any router of the domain by ident, ADR 041) may not apply it.
  assertCan(session, "devices.importCheck");
  if (!upload) throw new AppError("NOTHING_TO_UPLOAD", "Send the file in the multipart field `file`");
  const rows = await readImportFile(upload);
  const keys: DeviceImportResult["keys"] = [];
  let outcome: { plan: ImportPlan; created: string[]; changed: string[] };
  try {
    outcome = await ctx.jobs.transaction(async (trx) => {
      // Held first, so the room the plan reads stays until the commit.
      await devicesRepo(trx).lockDomainForDeviceCount(domainId);
      const plan = await planAgainst(ctx, trx, domainId, rows);
      if (plan.answer.plan !== planId) {
        throw new AppError(
          "BAD_REQUEST",
          "The file or the routers changed since the check: check the file again",
          {
            status: 409,
          },
        );
      }
      if (plan.changes.length > 0) assertCan(session, "devices.edit");
      return { plan, ...(await applyPlan(ctx, trx, session, domainId, plan, keys)) };
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isUniqueViolation(error)) throw new AppError("DEVICE_ALREADY_EXIST");
    ctx.log.error({ err: error, domainId }, "importing routers failed");
    throw new AppError("DEVICE_CREATE_ERROR");
  }
  await publishImported(ctx, domainId, "put", outcome.created);
  await publishImported(ctx, domainId, "update", outcome.changed);
  const keysCsv = toCsv(
    ["ident", "key"],
    keys.map((made) => [made.ident, made.key]),
  );
  return { ...outcome.plan.answer, created: outcome.created.length, keys, keys_csv: keysCsv };
}
