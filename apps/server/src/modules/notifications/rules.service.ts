import { randomUUID } from "node:crypto";
import {
  areTagsWithinTagScope,
  EVENT_LEVELS,
  type EventLevel,
  MONITORS,
  type MonitorName,
  monitorsFor,
  type Rule,
  type RuleFieldsParsed,
  type RuleListAnswer,
  type RuleListRequest,
} from "@cellfleet/contract";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { incidentsRepo } from "./engine/incidents.repo";
import { type RuleValues, type RuleWithTransportRow, rulesRepo } from "./rules.repo";
import { notificationScope, seesNotifications } from "./scope";
import { transportsRepo } from "./transports.repo";

const HOUR_MS = 3600_000;

/** The one mapper of a rule row to the answer. */
export function toRule(row: RuleWithTransportRow): Rule {
  const monitor = row.monitor as MonitorName;
  return {
    _id: row.id,
    name: row.name,
    active: row.active,
    draft: row.draft,
    monitor: {
      name: monitor,
      type: MONITORS[monitor].type,
      check_delay: row.check_delay === null ? null : Number(row.check_delay),
      variables: row.variables,
    },
    transport:
      row.transport_id && row.transport_name && row.transport_type
        ? { _id: row.transport_id, name: row.transport_name, type: row.transport_type }
        : null,
    filter_tags: row.filter_tags,
    filter_levels: row.filter_levels.filter((level): level is EventLevel =>
      (EVENT_LEVELS as readonly string[]).includes(level),
    ),
    tolerance_minutes: row.tolerance_minutes,
    open_incidents: row.open_incidents,
    create_date: row.create_time.getTime(),
    update_time: row.update_time.getTime(),
  };
}

/**
 * The stored values of a body, after the rules the schema cannot see: superusers watch accounts
 * only (no device views), the provider is the scope's own, a draft never runs.
 */
async function valuesOf(
  ctx: AppContext,
  session: SessionContext,
  body: RuleFieldsParsed,
): Promise<RuleValues> {
  const scope = notificationScope(session);
  // A caller limited to tags watches only routers of theirs, whatever else those routers carry: a
  // rule of their tags, never one for all routers or another tag (ADR 041, as schedules).
  if (!areTagsWithinTagScope(tagScopeOf(session), body.filter_tags ?? [])) {
    throw new AppError(
      "PERMISSION_DENIED",
      "You are limited to routers of some tags: a rule of yours watches routers of those tags only",
    );
  }
  const monitor = MONITORS[body.monitor.name];
  if (!monitorsFor(scope === null).includes(monitor)) {
    throw new AppError(
      "OPERATION_IS_NOT_SUPPORTED",
      `The ${monitor.name} monitor watches devices, which superusers do not see`,
    );
  }
  if (body.transport_id !== null && !(await transportsRepo(ctx.db).findTransport(scope, body.transport_id))) {
    throw new AppError("TRANSPORT_NOT_FOUND");
  }
  const isTimer = monitor.type === "timer";
  const checkDelay =
    isTimer && typeof body.monitor.check_delay === "number" ? body.monitor.check_delay : null;
  // A check-interval digest comes first after one interval, not the moment it is saved.
  const timerNextAt =
    body.monitor.name === "check_interval" && checkDelay !== null
      ? new Date(ctx.now().getTime() + checkDelay * HOUR_MS)
      : null;
  return {
    name: body.name,
    active: body.draft ? false : body.active,
    draft: body.draft,
    monitor: body.monitor.name,
    check_delay: checkDelay,
    variables: Object.fromEntries(
      monitor.variables
        .filter((variable) => body.monitor.variables[variable.name] !== undefined)
        .map((variable) => [variable.name, body.monitor.variables[variable.name] as string]),
    ),
    transport_id: body.transport_id,
    filter_tags: body.filter_tags,
    filter_levels: body.filter_levels,
    tolerance_minutes: body.tolerance_minutes,
    timer_next_at: timerNextAt,
  };
}

/** POST /api/notifications/rules: the scope's rules with the card's counts; empty without the plugin. */
export async function listRules(
  ctx: AppContext,
  session: SessionContext,
  request: RuleListRequest,
): Promise<RuleListAnswer> {
  if (!seesNotifications(session)) return { items: [], total: 0, active: 0 };
  const scope = notificationScope(session);
  const repo = rulesRepo(ctx.db, tagScopeOf(session));
  const [rows, counts] = await Promise.all([repo.findRules(scope, request.search), repo.countRules(scope)]);
  return { items: rows.map(toRule), ...counts };
}

/** POST /api/notifications/rule/{id}: one rule; RULE_NOT_FOUND outside the scope. */
export async function getRule(ctx: AppContext, session: SessionContext, id: string): Promise<Rule> {
  const row = await rulesRepo(ctx.db, tagScopeOf(session)).findRule(notificationScope(session), id);
  if (!row) throw new AppError("RULE_NOT_FOUND");
  return toRule(row);
}

/** POST /api/notifications/rule/new: RULE_ALREADY_EXISTS when the name is taken in the scope. */
export async function createRule(
  ctx: AppContext,
  session: SessionContext,
  body: RuleFieldsParsed,
): Promise<Rule> {
  const values = await valuesOf(ctx, session, body);
  const id = randomUUID();
  try {
    await rulesRepo(ctx.db).insertRule(notificationScope(session), {
      ...values,
      id,
      author_id: session.user.id,
      at: ctx.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("RULE_ALREADY_EXISTS");
    throw error;
  }
  return getRule(ctx, session, id);
}

/**
 * PUT /api/notifications/rule/{id}: every field. A rule whose monitor or variables change (or
 * that stops running) closes its incidents without a word: they were about what it watched before.
 */
export async function updateRule(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  body: RuleFieldsParsed,
): Promise<Rule> {
  const scope = notificationScope(session);
  const repo = rulesRepo(ctx.db, tagScopeOf(session));
  const existing = await repo.findRule(scope, id);
  if (!existing) throw new AppError("RULE_NOT_FOUND");
  const values = await valuesOf(ctx, session, body);
  const isSameWatch =
    existing.monitor === values.monitor &&
    JSON.stringify(existing.variables) === JSON.stringify(values.variables) &&
    Number(existing.check_delay ?? 0) === Number(values.check_delay ?? 0);
  if (isSameWatch) values.timer_next_at = existing.timer_next_at;
  try {
    await ctx.jobs.transaction(async (trx) => {
      await rulesRepo(trx).updateRule(scope, id, values, ctx.now());
      if (!isSameWatch || !values.active) await incidentsRepo(trx).closeRuleIncidents(scope, id, ctx.now());
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("RULE_ALREADY_EXISTS");
    throw error;
  }
  return getRule(ctx, session, id);
}

/** PATCH /api/notifications/rule/{id} (spec section 7): the list's toggle. A draft cannot be switched on. */
export async function setRuleActive(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  active: boolean,
): Promise<Rule> {
  const scope = notificationScope(session);
  const existing = await rulesRepo(ctx.db, tagScopeOf(session)).findRule(scope, id);
  if (!existing) throw new AppError("RULE_NOT_FOUND");
  if (active && (existing.draft || existing.transport_id === null)) {
    throw new AppError("NOT_ENOUGH_PARAMS", "A draft is switched on by saving it as a rule");
  }
  await ctx.jobs.transaction(async (trx) => {
    await rulesRepo(trx).setRuleActive(scope, id, active, ctx.now());
    if (!active) await incidentsRepo(trx).closeRuleIncidents(scope, id, ctx.now());
  });
  return getRule(ctx, session, id);
}

/** DELETE /api/notifications/rule/{id}: its incidents go with it; its deliveries stay in the log. */
export async function deleteRule(ctx: AppContext, session: SessionContext, id: string): Promise<void> {
  if (!(await rulesRepo(ctx.db, tagScopeOf(session)).deleteRule(notificationScope(session), id)))
    throw new AppError("RULE_NOT_FOUND");
}
