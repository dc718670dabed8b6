import { randomUUID } from "node:crypto";
import { FIRMWARE_STATUS, type SaveSoftwareRuleInput, type SoftwareRule } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import type { SoftwareRuleRow } from "../../platform/db/schema-firmware";
import { AppError } from "../../platform/errors";
import type { FileRead } from "../../platform/storage/file-storage";
import { FILE_BLOB_DELETE_JOB } from "../files/files-queue";
import { FIRMWARE_FETCH_JOB } from "./firmware.jobs";
import { toSoftwareRule } from "./firmware.mapper";
import { firmwareRepo } from "./firmware.repo";
import { publishRule, publishRuleDeleted } from "./software-live";

// Software (firmware) rules, root's (spec sections 2, 3, 7). Every change that needs the file
// fetched starts a new fetch generation and enqueues its job in the same transaction (ADR 007);
// root's screens hear of each change after its commit (software-live.ts).

function notFound(): AppError {
  return new AppError("RULE_NOT_FOUND", "No such software rule");
}

async function enqueueFetch(ctx: AppContext, trx: Kysely<DB>, ruleId: string, generation: number) {
  await ctx.jobs.enqueue(trx, {
    kind: FIRMWARE_FETCH_JOB,
    payload: { ruleId, generation },
    dedupeKey: `firmware.fetch:${ruleId}:${generation}`,
  });
}

async function requireRule(db: Kysely<DB>, id: string): Promise<SoftwareRuleRow> {
  const row = await firmwareRepo(db).findRule(id);
  if (!row) throw notFound();
  return row;
}

/** POST /api/firmwares: every rule, latest change first. */
export async function listSoftwareRules(ctx: AppContext): Promise<{ items: SoftwareRule[] }> {
  const rows = await firmwareRepo(ctx.db).listRules();
  return { items: rows.map(toSoftwareRule) };
}

export async function getSoftwareRule(ctx: AppContext, id: string): Promise<SoftwareRule> {
  return toSoftwareRule(await requireRule(ctx.db, id));
}

/** A new rule, Pending until its file is fetched. */
export async function createSoftwareRule(
  ctx: AppContext,
  input: SaveSoftwareRuleInput,
): Promise<SoftwareRule> {
  const id = randomUUID();
  const now = ctx.now();
  await ctx.jobs.transaction(async (trx) => {
    await firmwareRepo(trx).insertRule({
      id,
      name: input.name,
      url: input.url,
      models: input.models,
      status: FIRMWARE_STATUS.pending,
      fetch_generation: 1,
      create_time: now,
      update_time: now,
    });
    await enqueueFetch(ctx, trx, id, 1);
  });
  return publishRule(ctx, await getSoftwareRule(ctx, id));
}

/**
 * Saves name, URL and models. A new URL fetches again (Pending until then; the file kept so far
 * stays until the new one is whole); `sync` asks for a fresh fetch of the same URL.
 */
export async function saveSoftwareRule(
  ctx: AppContext,
  id: string,
  input: SaveSoftwareRuleInput,
  options: { sync?: boolean } = {},
): Promise<SoftwareRule> {
  await ctx.jobs.transaction(async (trx) => {
    const repo = firmwareRepo(trx);
    const row = await repo.lockRule(id);
    if (!row) throw notFound();
    const isNewFetch = options.sync === true || row.url !== input.url;
    await repo.updateRule(id, { ...input, updateTime: ctx.now(), newFetch: isNewFetch });
    if (isNewFetch) await enqueueFetch(ctx, trx, id, row.fetch_generation + 1);
  });
  return publishRule(ctx, await getSoftwareRule(ctx, id));
}

/** POST /api/software/{id}/sync: fetch the rule's URL again. */
export async function syncSoftwareRule(ctx: AppContext, id: string): Promise<SoftwareRule> {
  const row = await requireRule(ctx.db, id);
  return saveSoftwareRule(ctx, id, { name: row.name, url: row.url, models: row.models }, { sync: true });
}

/** Deletes the rule; its file leaves storage through a job once the delete committed. */
export async function deleteSoftwareRule(ctx: AppContext, id: string): Promise<void> {
  await ctx.jobs.transaction(async (trx) => {
    const repo = firmwareRepo(trx);
    const row = await repo.lockRule(id);
    if (!row) throw notFound();
    await repo.deleteRule(id);
    if (row.file_key)
      await ctx.jobs.enqueue(trx, { kind: FILE_BLOB_DELETE_JOB, payload: { key: row.file_key } });
  });
  await publishRuleDeleted(ctx, id);
}

/** The rule's fetched file for download; FILE_NOT_FOUND before one was fetched whole. */
export async function openSoftwareFile(
  ctx: AppContext,
  id: string,
): Promise<{ filename: string; read: FileRead }> {
  const row = await requireRule(ctx.db, id);
  if (!row.file_key || !row.filename) throw new AppError("FILE_NOT_FOUND", "The firmware is not fetched yet");
  return { filename: row.filename, read: await ctx.storage.get(row.file_key) };
}
