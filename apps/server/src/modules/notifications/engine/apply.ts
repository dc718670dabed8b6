import type { Kysely } from "kysely";
import type { AppContext } from "../../../platform/context";
import type { DB } from "../../../platform/db/schema";
import type { RuleFindings } from "./findings";
import { occurrenceWindowMs, scheduleFlush } from "./flush";
import { incidentsRepo } from "./incidents.repo";

/**
 * Writes findings as incidents in the caller's transaction and makes sure a flush follows:
 * problems and their ends after the rule's tolerance, new occurrences at once, a repeated
 * occurrence when its quiet window ends.
 */
export async function applyFindings(
  ctx: AppContext,
  trx: Kysely<DB>,
  findings: readonly RuleFindings[],
): Promise<void> {
  const now = ctx.now();
  const incidents = incidentsRepo(trx);
  for (const { rule, problems = [], recoveries = [], occurrences = [], seen = [] } of findings) {
    const domainId = rule.domain_id;
    const afterTolerance = new Date(now.getTime() + rule.tolerance_minutes * 60_000);
    if (problems.length > 0) {
      await incidents.raiseProblems(domainId, rule.id, problems, now, afterTolerance);
      await scheduleFlush(ctx, trx, domainId, rule.id, afterTolerance);
    }
    if (recoveries.length > 0) {
      const ended = await incidents.resolveProblems(domainId, rule.id, recoveries, now, afterTolerance);
      if (ended > 0) await scheduleFlush(ctx, trx, domainId, rule.id, afterTolerance);
    }
    const window = occurrenceWindowMs(rule);
    if (occurrences.length > 0) {
      await incidents.recordOccurrences(domainId, rule.id, occurrences, now, window, true);
      await scheduleFlush(ctx, trx, domainId, rule.id, now);
      await scheduleFlush(ctx, trx, domainId, rule.id, new Date(now.getTime() + window));
    }
    if (seen.length > 0) {
      await incidents.recordOccurrences(domainId, rule.id, seen, now, window, false);
      await scheduleFlush(ctx, trx, domainId, rule.id, now);
    }
  }
}
