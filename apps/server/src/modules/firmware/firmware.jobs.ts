import { FIRMWARE_STATUS } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { FILE_BLOB_DELETE_JOB } from "../files/files-queue";
import { firmwareRepo } from "./firmware.repo";
import { fetchFirmwareIntoStorage } from "./firmware-fetch";
import { publishRuleById } from "./software-live";

/** Fetches a rule's file into storage (one job per fetch generation). */
export const FIRMWARE_FETCH_JOB = "firmware.fetch";

export interface FirmwareFetchPayload extends Record<string, unknown> {
  ruleId: string;
  generation: number;
}

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "firmware.fetch": FirmwareFetchPayload;
  }
}

/** The storage key of one fetch: a re-run after a crash writes the same key again. */
export function firmwareFileKey(ruleId: string, generation: number): string {
  return `fw-${ruleId.toLowerCase()}-${generation}`;
}

/** Registers the fetch job: at least once (ADR 007), so the outcome is written only for its own generation. */
export function registerFirmwareJobs(ctx: AppContext): void {
  ctx.jobs.register(FIRMWARE_FETCH_JOB, {
    // A crash mid-download runs it again; an HTTP refusal or a timeout is an outcome, not a retry.
    maxAttempts: 3,
    // Long files: the storage's put streams, and the fetch's own timeout catches a silent server.
    timeoutMs: 2 * 3600_000,
    handle: async ({ payload, signal }) => {
      const repo = firmwareRepo(ctx.db);
      const rule = await repo.findRule(payload.ruleId);
      if (!rule || rule.fetch_generation !== payload.generation) return;
      const key = firmwareFileKey(rule.id, payload.generation);
      const outcome = await fetchFirmwareIntoStorage(
        ctx.storage,
        rule.url,
        key,
        ctx.config.firmwareFetch,
        signal,
        async () => {
          await repo.setFetchStatus(rule.id, payload.generation, {
            status: FIRMWARE_STATUS.accepted,
            error: null,
            updateTime: ctx.now(),
          });
          await publishRuleById(ctx, rule.id);
        },
      );
      await ctx.jobs.transaction(async (trx) => {
        const locked = await firmwareRepo(trx).lockRule(rule.id);
        if (outcome.kind === "refused") {
          await firmwareRepo(trx).setFetchStatus(rule.id, payload.generation, {
            status: outcome.status,
            error: outcome.error,
            updateTime: ctx.now(),
          });
          return;
        }
        const isCurrent =
          locked !== undefined &&
          (await firmwareRepo(trx).setFetchedFile(rule.id, payload.generation, {
            fileKey: key,
            filename: outcome.filename,
            size: outcome.size,
            sha256: outcome.sha256,
            status: FIRMWARE_STATUS.ready,
            syncTime: ctx.now(),
          }));
        // The file this one replaces goes; a fetch overtaken by a newer one (or a deleted rule) removes its own.
        const stale = isCurrent ? locked?.file_key : key;
        if (stale && stale !== (isCurrent ? key : null))
          await ctx.jobs.enqueue(trx, { kind: FILE_BLOB_DELETE_JOB, payload: { key: stale } });
      });
      // Ready or an error status, after the commit (a fetch overtaken by a newer one pushes the rule as it is).
      await publishRuleById(ctx, rule.id);
    },
  });
}
