import { randomUUID } from "node:crypto";
import {
  areTagsWithinTagScope,
  isScheduleClass,
  type ScheduleClass,
  type ScheduleRule,
  type ScheduleRuleInput,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { type DB, toJsonb } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { requireDeviceDomain } from "../devices/devices.service";
import { enqueueDomainRetention } from "../files/files-queue";
import { findDomainTimeZone } from "../settings/settings.service";
import { nextOccurrence } from "./occurrences";
import { enqueueFiring } from "./schedules.jobs";
import { toScheduleRuleDto } from "./schedules.mapper";
import { type ScheduleRuleRow, schedulesRepo } from "./schedules.repo";

/** The class of a path: backup or journal, else UNSUPPORTED_TASK_TYPE. */
function classOf(value: string): ScheduleClass {
  if (!isScheduleClass(value)) throw new AppError("UNSUPPORTED_TASK_TYPE", "A rule is of backup or journal");
  return value;
}

// A caller limited to tags (ADR 041: an admin's tag-scoped API token) works only on rules whose
// routers all lie within its scope whatever their tags become: a group whose every tag is in the
// scope. Others are not found; a rule it writes reaching further is refused. A rule fires with
// the domain's authority over the routers its tags name, so it reaches no router outside.

/** Whether the caller's tag scope holds every router the rule names. */
function isRuleWithinScope(session: SessionContext, rule: { active_for: string; tags: readonly string[] }) {
  return areTagsWithinTagScope(tagScopeOf(session), rule.active_for === "group" ? rule.tags : []);
}

/** Refuses a rule naming routers outside the caller's tags (PERMISSION_DENIED). */
function assertInputWithinScope(session: SessionContext, input: ScheduleRuleInput): void {
  const tags = input.active_for === "group" ? input.search.filterTags : [];
  if (!isRuleWithinScope(session, { active_for: input.active_for, tags })) {
    throw new AppError(
      "PERMISSION_DENIED",
      "You are limited to routers of some tags: a schedule of yours names a group of those tags only",
    );
  }
}

/** A rule the caller's tags hold, else TASK_NOT_FOUND as another domain's. */
function withinScope<T extends ScheduleRuleRow | undefined>(session: SessionContext, row: T): T | undefined {
  return row && isRuleWithinScope(session, row) ? row : undefined;
}

/** POST /api/crontab/all: the domain's backup and journal rules (those within the caller's tags). */
export async function listScheduleRules(ctx: AppContext, session: SessionContext): Promise<ScheduleRule[]> {
  const domainId = requireDeviceDomain(session);
  const zone = await findDomainTimeZone(ctx, domainId);
  const rows = await schedulesRepo(ctx.db).listRules(domainId);
  return rows.filter((row) => isRuleWithinScope(session, row)).map((row) => toScheduleRuleDto(row, zone));
}

/** POST /api/crontab/{class}/{id}: one rule; another domain's or another class's is TASK_NOT_FOUND. */
export async function getScheduleRule(
  ctx: AppContext,
  session: SessionContext,
  classValue: string,
  id: string,
): Promise<ScheduleRule> {
  const domainId = requireDeviceDomain(session);
  const row = withinScope(session, await schedulesRepo(ctx.db).findRule(domainId, classOf(classValue), id));
  if (!row) throw new AppError("TASK_NOT_FOUND");
  return toScheduleRuleDto(row, await findDomainTimeZone(ctx, domainId));
}

/** The occurrence an active rule waits for from now, in the domain's zone; null while inactive. */
function nextRunOf(ctx: AppContext, input: ScheduleRuleInput, zone: string): Date | null {
  return input.active ? nextOccurrence(input.regular, zone, ctx.now()) : null;
}

/** The rule's columns from what an admin wrote. */
function columnsOf(input: ScheduleRuleInput, nextRun: Date | null, now: Date) {
  return {
    name: input.name,
    active: input.active,
    regular: toJsonb(input.regular),
    active_for: input.active_for,
    tags: toJsonb(input.active_for === "group" ? input.search.filterTags : []),
    copies: input.copies,
    next_run: nextRun,
    update_time: now,
  };
}

/** Reads a rule back after its transaction. */
async function readBack(ctx: AppContext, domainId: string, type: ScheduleClass, id: string) {
  const row = await schedulesRepo(ctx.db).findRule(domainId, type, id);
  if (!row) throw new AppError("TASK_NOT_FOUND");
  return toScheduleRuleDto(row, await findDomainTimeZone(ctx, domainId));
}

/** POST /api/crontab/{class}: a new rule, its first occurrence queued in the same transaction. */
export async function createScheduleRule(
  ctx: AppContext,
  session: SessionContext,
  classValue: string,
  input: ScheduleRuleInput,
): Promise<ScheduleRule> {
  const domainId = requireDeviceDomain(session);
  const type = classOf(classValue);
  assertInputWithinScope(session, input);
  const id = randomUUID();
  const now = ctx.now();
  await ctx.jobs.transaction(async (trx) => {
    const nextRun = nextRunOf(ctx, input, await findDomainTimeZone({ db: trx }, domainId));
    await schedulesRepo(trx).insertRule(domainId, {
      id,
      type,
      ...columnsOf(input, nextRun, now),
      last_run: null,
      last_command_id: null,
      create_time: now,
    });
    if (nextRun) await enqueueFiring(ctx, trx, domainId, id, nextRun);
  });
  return readBack(ctx, domainId, type, id);
}

/** Locks a rule of the class for a change, or TASK_NOT_FOUND (also one outside the caller's tags). */
async function lockOfClass(
  trx: Kysely<DB>,
  session: SessionContext,
  domainId: string,
  type: ScheduleClass,
  id: string,
) {
  const row = withinScope(session, await schedulesRepo(trx).lockRule(domainId, id));
  if (!row || row.type !== type) throw new AppError("TASK_NOT_FOUND");
  return row;
}

/**
 * PUT /api/crontab/{class}/{id}: replaces a rule. Its next occurrence is worked out again and
 * queued; a firing already queued for the old one finds the rule moved on and does nothing.
 * Tags changed apply from the next firing, which reads the routers then.
 */
export async function updateScheduleRule(
  ctx: AppContext,
  session: SessionContext,
  classValue: string,
  id: string,
  input: ScheduleRuleInput,
): Promise<ScheduleRule> {
  const domainId = requireDeviceDomain(session);
  const type = classOf(classValue);
  assertInputWithinScope(session, input);
  await ctx.jobs.transaction(async (trx) => {
    const before = await lockOfClass(trx, session, domainId, type, id);
    const nextRun = nextRunOf(ctx, input, await findDomainTimeZone({ db: trx }, domainId));
    await schedulesRepo(trx).updateRule(domainId, id, columnsOf(input, nextRun, ctx.now()));
    if (nextRun) await enqueueFiring(ctx, trx, domainId, id, nextRun);
    // Fewer copies kept: the routers holding this type's copies are trimmed now, not at their next upload.
    if (input.copies < before.copies) await enqueueDomainRetention(ctx, trx, domainId, type);
  });
  return readBack(ctx, domainId, type, id);
}

/** PATCH /api/crontab/{class}/{id}: switches a rule on (from its next occurrence after now) or off. */
export async function setScheduleRuleActive(
  ctx: AppContext,
  session: SessionContext,
  classValue: string,
  id: string,
  active: boolean,
): Promise<ScheduleRule> {
  const domainId = requireDeviceDomain(session);
  const type = classOf(classValue);
  await ctx.jobs.transaction(async (trx) => {
    const row = await lockOfClass(trx, session, domainId, type, id);
    if (row.active === active) return;
    const zone = await findDomainTimeZone({ db: trx }, domainId);
    const nextRun = active ? nextOccurrence(row.regular, zone, ctx.now()) : null;
    await schedulesRepo(trx).updateRule(domainId, id, { active, next_run: nextRun, update_time: ctx.now() });
    if (nextRun) await enqueueFiring(ctx, trx, domainId, id, nextRun);
  });
  return readBack(ctx, domainId, type, id);
}
