import { CSV_EXPORT_CHUNK, type RuleListRequest } from "@cellfleet/contract";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { rulesRepo } from "./rules.repo";
import { toRule } from "./rules.service";
import { notificationScope, seesNotifications } from "./scope";

/** Columns of rules.csv: the list's columns (spec section 2, notification rule list) and the filters. */
export const RULE_CSV_COLUMNS = [
  "name",
  "active",
  "draft",
  "monitor",
  "provider",
  "filter_tags",
  "filter_levels",
  "tolerance_minutes",
  "open_incidents",
  "update_time",
] as const;

/** POST /api/notifications/rules/export: the rules the list shows for the same search, by name. */
export async function* exportRulesRows(
  ctx: AppContext,
  session: SessionContext,
  request: RuleListRequest,
): AsyncGenerator<CsvCell[][]> {
  // Without the notification plugin the list is empty (spec section 6), and so is its export.
  if (!seesNotifications(session)) return;
  const scope = notificationScope(session);
  const repo = rulesRepo(ctx.db, tagScopeOf(session));
  const pages = keysetPages(
    (after: string | null, limit) => repo.findRulesAfter(scope, request.search, after, limit),
    (row) => row.name,
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows
      .map(toRule)
      .map((rule) => [
        rule.name,
        rule.active ? "yes" : "no",
        rule.draft ? "yes" : "no",
        rule.monitor.name,
        rule.transport?.name ?? null,
        rule.filter_tags.join(";"),
        rule.filter_levels.join(";"),
        rule.tolerance_minutes,
        rule.open_incidents,
        new Date(rule.update_time).toISOString(),
      ]);
  }
}
