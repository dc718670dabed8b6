import {
  mayRolloutSend,
  ROLLOUT_HOLDS,
  type RolloutHold,
  type RolloutProgress,
  type RolloutStartRequest,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import type { FirmwareRolloutRow } from "../../platform/db/schema-firmware";
import { createFirmwareCommandInTransaction } from "../actions/system-commands";
import { firmwareRepo } from "./firmware.repo";
import { rolloutRepo } from "./rollout.repo";
import { type DomainHold, domainCheck, holdOf } from "./rollout-holds";
import { rolloutOffersRepo } from "./rollout-offers.repo";

// The rollout driver's sending (ADR 021): a stage topped up to the concurrency cap, each router
// re-checked right before its fw_update, and the holds the progress reports.

/** How many waiting targets one look at a stage reads at a time. */
const TOP_UP_PAGE = 200;

/**
 * Re-reads every held router's hold, whatever its stage (a full stage stops topping up, so without
 * this the holds of later stages would go stale): one read, and one write per hold that changed.
 * A router whose link is good now loses its hold and waits for its stage's turn.
 */
async function refreshHolds(
  repo: ReturnType<typeof rolloutRepo>,
  rollout: FirmwareRolloutRow,
  isOpen: (domainId: string) => Promise<DomainHold>,
  now: Date,
): Promise<void> {
  const changed = new Map<RolloutHold | null, string[]>();
  for (const target of await repo.listHeldLinksAcrossDomains(rollout.id, rollout.link_stage)) {
    const hold = await holdOf(isOpen, target);
    if (hold === target.reason) continue;
    const ids = changed.get(hold) ?? [];
    ids.push(target.device_id);
    changed.set(hold, ids);
  }
  for (const [hold, ids] of changed) await repo.setHoldAcrossDomains(rollout.id, ids, hold, now);
}

/**
 * Sends the stage's waiting routers (and those of earlier stages, left waiting for their domain's
 * answer when the stage moved on, ADR 031) up to the concurrency cap, and at the error budget one at a
 * time (`mayRolloutSend`, asked before each send), each re-checked right before its
 * fw_update: its domain not accepting, outside a window or on a weak link (its latest reports) it stays waiting
 * with that hold written as its reason, and is tried again at the next advance. Every held router
 * of the rollout has its hold re-read first, so the progress's `held` is true at each advance.
 */
export async function topUpStage(
  ctx: AppContext,
  trx: Kysely<DB>,
  rollout: FirmwareRolloutRow,
  stage: number,
  now: Date,
): Promise<void> {
  const repo = rolloutRepo(trx);
  const options = rollout.options as unknown as RolloutStartRequest;
  const counts = await repo.countTargetsAcrossDomains(rollout.id);
  const countOf = (state: string) =>
    counts.filter((row) => row.state === state).reduce((sum, row) => sum + row.count, 0);
  // The failures were counted at the start of this advance; each send adds one under way, and
  // `mayRolloutSend` is asked again before the next (the error budget, ADR 021).
  const sending = { total: rollout.total, failed: countOf("failed"), inFlight: countOf("sent") };
  const maySend = () => mayRolloutSend(sending, options);
  const window =
    rollout.window_start === null || rollout.window_end === null
      ? null
      : { start: rollout.window_start, end: rollout.window_end };
  const answers = await rolloutOffersRepo(trx).listRolloutDomainsAcrossDomains(rollout.id);
  const isOpen = domainCheck(trx, new Map(answers.map((answer) => [answer.domain_id, answer])), window, now);
  await refreshHolds(repo, rollout, isOpen, now);
  const rule = await firmwareRepo(trx).findRule(rollout.rule_id);
  const deadline = new Date(now.getTime() + options.deadlineMinutes * 60_000);
  let after: string | null = null;
  while (maySend()) {
    const page = await repo.listWaitingLinksAcrossDomains(rollout.id, stage, after, TOP_UP_PAGE);
    for (const target of page) {
      if (!maySend()) break;
      const hold = await holdOf(isOpen, target);
      if (hold !== null) {
        if (hold !== target.reason)
          await repo.moveTargetAcrossDomains(rollout.id, target.device_id, {
            reason: hold,
            update_time: now,
          });
        continue;
      }
      const sent = await createFirmwareCommandInTransaction(ctx, trx, target.domain_id, target.device_id, {
        fileKey: rollout.file_key,
        version: rollout.version,
        ruleName: rule?.name ?? rollout.version,
      });
      await repo.moveTargetAcrossDomains(rollout.id, target.device_id, {
        state: "sent",
        reason: null,
        command_id: sent.commandId,
        execution_id: sent.executionId,
        deadline,
        update_time: now,
      });
      sending.inFlight += 1;
    }
    if (page.length < TOP_UP_PAGE) break;
    after = page[page.length - 1]?.device_id ?? null;
  }
}

/** Waiting routers held at the last advance, by reason (ROLLOUT_HOLDS). */
export function heldOf(rows: ReadonlyArray<{ reason: string; count: number }>): RolloutProgress["held"] {
  const held = { offer: 0, window: 0, cellEdge: 0, backupSim: 0, roaming: 0 };
  for (const row of rows)
    if ((ROLLOUT_HOLDS as readonly string[]).includes(row.reason))
      held[row.reason as RolloutHold] = row.count;
  return held;
}
