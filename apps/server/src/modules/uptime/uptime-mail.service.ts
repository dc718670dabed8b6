import { randomUUID } from "node:crypto";
import {
  areTagsWithinTagScope,
  type UptimeMailRule,
  type UptimeMailRuleInput,
  UptimeMailRuleInputSchema,
} from "@cellfleet/contract";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { toJsonb } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { requireDeviceDomain } from "../devices/devices.service";
import { findDomainTimeZone } from "../settings/settings.service";
import { uptimeRepo } from "./uptime.repo";
import { enqueueMailFiring, nextMailing } from "./uptime-mail.jobs";
import { type UptimeMailRuleRow, uptimeMailRepo } from "./uptime-mail.repo";

/** The one mapping of a rule row to what the API answers; `timeZone` is the domain's. */
function toUptimeMailRuleDto(row: UptimeMailRuleRow, timeZone: string): UptimeMailRule {
  return {
    _id: row.id,
    name: row.name,
    recipients: row.recipients,
    scope: row.scope,
    tag: row.tag,
    language: row.language,
    next_run: row.next_run ? row.next_run.getTime() : null,
    last_run: row.last_run ? row.last_run.getTime() : null,
    last_month: row.last_month,
    time_zone: timeZone,
    create_time: row.create_time.getTime(),
  };
}

/**
 * Whether the caller's tag scope holds every router a rule reports on (ADR 041): a tag's rule only
 * within it, the whole domain's only for a caller with no scope. Rules are admins' (no person
 * scope), so this bites an admin's API token narrowed to tags, as schedules do.
 */
function isRuleWithinScope(session: SessionContext, rule: { scope: string; tag: string | null }): boolean {
  return areTagsWithinTagScope(
    tagScopeOf(session),
    rule.scope === "tag" && rule.tag !== null ? [rule.tag] : [],
  );
}

/** POST /api/uptime/mail-rules: the domain's monthly uptime mails (those within the caller's tags). */
export async function listUptimeMailRules(
  ctx: AppContext,
  session: SessionContext,
): Promise<UptimeMailRule[]> {
  const domainId = requireDeviceDomain(session);
  const zone = await findDomainTimeZone(ctx, domainId);
  return (await uptimeMailRepo(ctx.db).listRules(domainId))
    .filter((row) => isRuleWithinScope(session, row))
    .map((row) => toUptimeMailRuleDto(row, zone));
}

/** POST /api/uptime/mail-rule: a new monthly mail, its first occurrence queued in the same transaction. */
export async function createUptimeMailRule(
  ctx: AppContext,
  session: SessionContext,
  input: UptimeMailRuleInput,
): Promise<UptimeMailRule> {
  const domainId = requireDeviceDomain(session);
  const rule = UptimeMailRuleInputSchema.parse(input);
  const tag = rule.scope === "tag" ? (rule.tag ?? null) : null;
  if (!isRuleWithinScope(session, { scope: rule.scope, tag })) {
    throw new AppError(
      "PERMISSION_DENIED",
      "You are limited to routers of some tags: an uptime mail of yours reports on one of those tags",
    );
  }
  if (tag !== null && !(await uptimeRepo(ctx.db).hasTag(domainId, tag)))
    throw new AppError("BAD_REQUEST", `tag: no router of the domain has the tag "${tag}"`);
  const id = randomUUID();
  const now = ctx.now();
  await ctx.jobs.transaction(async (trx) => {
    const nextRun = nextMailing(await findDomainTimeZone({ db: trx }, domainId), now);
    await uptimeMailRepo(trx).insertRule(domainId, {
      id,
      name: rule.name,
      recipients: toJsonb([...new Set(rule.recipients.map((address) => address.trim().toLowerCase()))]),
      scope: rule.scope,
      tag,
      language: rule.language,
      next_run: nextRun,
      last_run: null,
      last_month: null,
      create_time: now,
    });
    await enqueueMailFiring(ctx, trx, domainId, id, nextRun);
  });
  const row = await uptimeMailRepo(ctx.db).findRule(domainId, id);
  if (!row) throw new AppError("TASK_NOT_FOUND");
  return toUptimeMailRuleDto(row, await findDomainTimeZone(ctx, domainId));
}

/** DELETE /api/uptime/mail-rule/{id}: the rule goes; its queued firing finds nothing and does nothing. */
export async function deleteUptimeMailRule(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<void> {
  const domainId = requireDeviceDomain(session);
  const repo = uptimeMailRepo(ctx.db);
  const row = await repo.findRule(domainId, id);
  if (!row || !isRuleWithinScope(session, row) || !(await repo.deleteRule(domainId, id)))
    throw new AppError("TASK_NOT_FOUND");
}
