import type { DeviceFileType, FileStatus } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { filesRepo } from "./files.repo";
import { enqueueBlobDeletes } from "./files-queue";

/** One copy as retention sees it. */
export interface RetainedCopy {
  id: string;
  status: FileStatus;
}

/**
 * The copies of one router and type to delete, given them newest first and the domain's copies
 * setting (spec sections 3 and 5: 1 to 100). Only completed copies count: the newest `keep` of them
 * stay, so the newest good copy is never deleted (a setting below 1 still keeps it). Failed copies
 * never count and never push a good one out; those newer than the newest good copy stay (at most
 * `keep`, to show recent failures), older ones go.
 */
export function chooseCopiesToDelete(copiesNewestFirst: readonly RetainedCopy[], keep: number): string[] {
  const keepCount = Math.max(1, Math.floor(Number.isFinite(keep) ? keep : 1));
  const kept = new Set<string>();
  let goodSeen = 0;
  let recentFailures = 0;
  for (const copy of copiesNewestFirst) {
    if (copy.status === "completed") {
      if (goodSeen < keepCount) kept.add(copy.id);
      goodSeen += 1;
    } else if (goodSeen === 0 && recentFailures < keepCount) {
      kept.add(copy.id);
      recentFailures += 1;
    }
  }
  return copiesNewestFirst.filter((copy) => !kept.has(copy.id)).map((copy) => copy.id);
}

/**
 * The copies to delete when each schedule rule keeps its own (ADR 020): a rule's commands' copies
 * are counted apart, by the rule's copies; the rest (a person's commands, a removed rule's) by the
 * domain's setting.
 */
export function chooseCopiesByRule(
  copiesNewestFirst: ReadonlyArray<RetainedCopy & { rule_id: string | null; rule_copies: number | null }>,
  domainKeep: number,
): string[] {
  const groups = new Map<string | null, { keep: number; copies: RetainedCopy[] }>();
  for (const copy of copiesNewestFirst) {
    const ruleId = copy.rule_copies === null ? null : copy.rule_id;
    const group = groups.get(ruleId) ?? {
      keep: ruleId === null ? domainKeep : (copy.rule_copies ?? domainKeep),
      copies: [],
    };
    group.copies.push({ id: copy.id, status: copy.status });
    groups.set(ruleId, group);
  }
  return [...groups.values()].flatMap((group) => chooseCopiesToDelete(group.copies, group.keep));
}

/** Device file types whose copies the domain settings count; report files belong to their command. */
function copiesSettingOf(
  setting: { backup: number; journal: number },
  fileType: DeviceFileType,
): number | null {
  if (fileType === "backup") return setting.backup;
  if (fileType === "journal") return setting.journal;
  return null;
}

/**
 * Keeps a router's copies of one type within the domain's setting: the rows go in one transaction
 * that holds the router's row (so two runs for one router take turns), their blobs by jobs queued
 * in it. A router already deleted is left to the `device.deleted` handler.
 */
export async function applyRetention(
  ctx: AppContext,
  domainId: string,
  deviceId: string,
  fileType: DeviceFileType,
): Promise<string[]> {
  return ctx.jobs.transaction(async (trx) => {
    const repo = filesRepo(trx);
    if (!(await repo.lockDevice(domainId, deviceId))) return [];
    const setting = await repo.findCopiesSetting(domainId);
    const keep = setting ? copiesSettingOf(setting, fileType) : null;
    if (keep === null) return [];
    const doomed = chooseCopiesByRule(
      await repo.listDeviceCopiesWithRule(domainId, deviceId, fileType),
      keep,
    );
    if (doomed.length === 0) return [];
    await repo.deleteFiles(domainId, doomed);
    await enqueueBlobDeletes(ctx, trx, domainId, doomed);
    await repo.refreshDeviceFileFlags(domainId, [deviceId]);
    return doomed;
  });
}
