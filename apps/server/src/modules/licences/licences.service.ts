import { randomUUID } from "node:crypto";
import type { License, LicenseError, LicensesAnswer } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import { takeTransactionLock } from "../../platform/db/locks";
import type { DB } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { toLicenseDto } from "./licences.mapper";
import { licencesRepo } from "./licences.repo";
import { deviceAllowance } from "./licences.rules";
import { requestActivation } from "./license-client";
import { createLicenseVerifier, type LicenseVerifier } from "./license-signature";

/** The durable job that asks the vendor's service for one licence (activation and refresh alike). */
export const LICENSE_ACTIVATE_JOB = "licences.activate";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "licences.activate": { licenseId: string };
  }
}

const verifiers = new WeakMap<AppContext["config"], LicenseVerifier>();

function verifierOf(ctx: AppContext): LicenseVerifier {
  let verifier = verifiers.get(ctx.config);
  if (!verifier) {
    verifier = createLicenseVerifier(ctx.config.licenses.publicKeys);
    verifiers.set(ctx.config, verifier);
  }
  return verifier;
}

/** This installation's digital print: derived from its master secret, the same on every node. */
export function installationFingerprint(ctx: AppContext): string {
  return ctx.secrets.key("installation-fingerprint").toString("hex");
}

/** POST /api/licenses: every licence, and how many routers the installation holds and may hold. */
export async function listLicenses(ctx: AppContext): Promise<LicensesAnswer> {
  const repo = licencesRepo(ctx.db);
  const rows = await repo.listLicenses();
  const now = ctx.now();
  const { licensed, limit } = deviceAllowance(rows, now, ctx.config.licenses.unlicensedDeviceLimit);
  return {
    items: rows.map((row) => toLicenseDto(row, now)),
    usage: { used: await repo.countDevicesAcrossDomains(), limit, licensed },
  };
}

async function enqueueActivation(ctx: AppContext, trx: Kysely<DB>, licenseId: string): Promise<void> {
  await ctx.jobs.enqueue(trx, {
    kind: LICENSE_ACTIVATE_JOB,
    payload: { licenseId },
    dedupeKey: `${LICENSE_ACTIVATE_JOB}:${licenseId}`,
  });
}

/** POST /api/licenses/new: stores the key and queues its activation in the same transaction. */
export async function addLicense(ctx: AppContext, key: string): Promise<License> {
  const id = randomUUID();
  const normalized = key.toLowerCase();
  await ctx.jobs.transaction(async (trx) => {
    const created = await licencesRepo(trx).insertLicense({
      id,
      key: normalized,
      create_time: ctx.now(),
    });
    if (!created) throw new AppError("KEY_ALREADY_EXISTS", "This licence key was added already");
    await enqueueActivation(ctx, trx, id);
  });
  return requireLicense(ctx, id);
}

/** POST /api/licenses/update: re-asks the service for one licence, or for every one. */
export async function refreshLicenses(ctx: AppContext, id: string | undefined): Promise<License[]> {
  await ctx.jobs.transaction(async (trx) => {
    const repo = licencesRepo(trx);
    const rows = id
      ? [await repo.findLicense(id)].filter((row) => row !== undefined)
      : await repo.listLicenses();
    if (id && rows.length === 0) throw new AppError("BAD_REQUEST", "No such licence", { status: 404 });
    await repo.markRefreshing(rows.map((row) => row.id));
    for (const row of rows) await enqueueActivation(ctx, trx, row.id);
  });
  return (await listLicenses(ctx)).items;
}

/** POST /api/licenses/fingerprint. */
export function getFingerprint(ctx: AppContext): { fingerprint: string } {
  return { fingerprint: installationFingerprint(ctx) };
}

/**
 * POST /api/licenses/upload: offline activation with a licence file the vendor signed for this
 * installation's digital print. A file for a key not yet listed adds it; one older than the
 * licence held is refused (an old file must not undo a newer refresh).
 */
export async function uploadLicense(ctx: AppContext, text: string): Promise<License> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("FILE_PARSING_FAILED", "The licence file is not JSON");
  }
  const check = verifierOf(ctx).check(body, { fingerprint: installationFingerprint(ctx) });
  if (!check.ok) throw new AppError("BAD_REQUEST", UPLOAD_REFUSALS[check.error]);
  const { payload, signature } = check.document;
  const id = await ctx.jobs.transaction(async (trx) => {
    const repo = licencesRepo(trx);
    await repo.insertLicense({ id: randomUUID(), key: payload.key, create_time: ctx.now() });
    const row = await repo.findLicenseByKey(payload.key);
    if (!row) throw new AppError("WRITE_DATA_FAILED");
    if (row.document && new Date(row.document.issuedAt).getTime() > new Date(payload.issuedAt).getTime())
      throw new AppError("BAD_REQUEST", "The licence file is older than the licence held");
    await repo.saveDocument(row.id, { payload, signature }, ctx.now());
    return row.id;
  });
  return requireLicense(ctx, id);
}

const UPLOAD_REFUSALS: Record<"answer_invalid" | "signature_invalid" | "fingerprint_mismatch", string> = {
  answer_invalid: "The file is not a licence",
  signature_invalid: "The licence's signature does not verify with the vendor's key",
  fingerprint_mismatch: "The licence was issued for another installation",
};

async function requireLicense(ctx: AppContext, id: string): Promise<License> {
  const row = await licencesRepo(ctx.db).findLicense(id);
  if (!row) throw new AppError("BAD_REQUEST", "No such licence", { status: 404 });
  return toLicenseDto(row, ctx.now());
}

/**
 * The activation job: asks the service, verifies the answer offline, and stores it only when it
 * verifies for this installation and key. A failure is recorded beside the licence held, which
 * stays in force: a tampered answer or an unreachable service never takes a valid licence away.
 */
export async function runActivation(ctx: AppContext, licenseId: string, signal: AbortSignal): Promise<void> {
  const repo = licencesRepo(ctx.db);
  const row = await repo.findLicense(licenseId);
  if (!row) return;
  const fingerprint = installationFingerprint(ctx);
  let error: LicenseError;
  try {
    const answer = await requestActivation(
      ctx.config.licenses.serverUrl,
      { key: row.key, fingerprint },
      signal,
    );
    if (answer.kind === "answer") {
      const check = verifierOf(ctx).check(answer.body, { fingerprint, key: row.key });
      if (check.ok) {
        await repo.saveDocument(row.id, check.document, ctx.now());
        return;
      }
      error = check.error === "fingerprint_mismatch" ? "answer_invalid" : check.error;
    } else error = answer.error;
  } catch (failure) {
    ctx.log.error({ err: failure, licenseId }, "licence activation failed");
    error = "server_error";
  }
  ctx.log.warn({ licenseId, error }, "licence not refreshed; the licence held (if any) stays");
  await repo.saveError(row.id, error, ctx.now());
}

/** Queues a refresh of every licence (the daily job), so a ban or a renewal reaches the console. */
export async function refreshAllLicenses(ctx: AppContext): Promise<void> {
  await refreshLicenses(ctx, undefined);
}

/** The licensed router count now; null when no licence limit applies. */
async function licensedDeviceLimit(ctx: AppContext, db: Kysely<DB>): Promise<number | null> {
  const { limit } = deviceAllowance(
    await licencesRepo(db).listLicenses(),
    ctx.now(),
    ctx.config.licenses.unlicensedDeviceLimit,
  );
  return limit;
}

/**
 * Refuses routers beyond the licensed count (DEVICE_COUNT_LIMITED), inside the caller's
 * transaction that inserts them. The count covers every domain, so creators serialise on one
 * advisory lock while a limit applies (two domains cannot together pass it).
 */
export async function assertLicensedDeviceRoom(
  ctx: AppContext,
  trx: Kysely<DB>,
  adding: number,
): Promise<void> {
  const limit = await licensedDeviceLimit(ctx, trx);
  if (limit === null) return;
  await takeTransactionLock(trx, "licences:device-count");
  const used = await licencesRepo(trx).countDevicesAcrossDomains();
  if (used + adding > limit)
    throw new AppError("DEVICE_COUNT_LIMITED", `The licence allows ${limit} routers (${used} now)`);
}

/** How many more routers the licences allow now, unlocked (an import's dry run); null: no limit. */
export async function findLicensedDeviceRoom(ctx: AppContext, db: Kysely<DB>): Promise<number | null> {
  const limit = await licensedDeviceLimit(ctx, db);
  if (limit === null) return null;
  return limit - (await licencesRepo(db).countDevicesAcrossDomains());
}
