import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRolloutFixture, type RolloutFixture, sumOfStages } from "./rollout.test-support";

// The error budget as the driver keeps it (ADR 021): once the failures counted reach the budget
// (the next one pauses), no router is sent while another is under way, so the rollout stops at
// the budget plus the routers that were already in flight, not a whole top-up past it.

/** The fleet's fw_update executions in the order they were written, with when each ended. */
const executionsOf = async (r: RolloutFixture, ids: string[]) =>
  r.f.t.db
    .selectFrom("command_executions")
    .select(["device_id", "create_time", "finish_time", "status"])
    .where("device_id", "in", ids)
    .orderBy("create_time")
    .orderBy("position")
    .execute();

describe("a rollout at its error budget", () => {
  let r: RolloutFixture;
  beforeAll(async () => {
    r = await openRolloutFixture();
  }, 60_000);
  afterAll(async () => r?.close());

  it("sends no more routers once the failures reach the budget, and pauses on the next failure", async () => {
    // 12 routers at 10% allow 1 failure. The canary (0, 1) spends it; wave 1's first three fail.
    const failing = new Set([0, 2, 3, 4]);
    const { devices, models } = await r.fleet(12, (i) => (failing.has(i) ? { commandFailRate: 1 } : {}));
    const ruleId = await r.readyRule(models, "RUT9_R_99.04.00");
    const id = await r.start(ruleId, {
      canary: { count: 2 },
      waveSize: 10,
      concurrency: 4,
      successRate: 0,
      errorBudget: 0.1,
      deadlineMinutes: 10,
    });
    const paused = await r.waitFor(
      id,
      (p) => p.status === "paused" && sumOfStages(p, "sent") === 0,
      "paused past the budget, nothing under way",
    );
    // Before: the whole concurrency cap of wave 1 (routers 2-5) went out at the budget, and three
    // failed: 4 failures for a budget of 1. Now router 2 goes alone, fails, and the rollout pauses.
    expect(paused.pause_reason).toBe("2 of 12 failed at stage 1");
    expect(sumOfStages(paused, "failed")).toBe(2);
    expect(paused.stages[1]).toEqual({ waiting: 9, sent: 0, succeeded: 0, failed: 1, skipped: 0 });
    const executions = await executionsOf(
      r,
      devices.map((device) => device.id),
    );
    expect(executions.map((execution) => execution.device_id)).toEqual(
      [devices[0], devices[1], devices[2]].map((device) => device?.id),
    );
  }, 120_000);

  it("at the budget sends one router at a time, each after the one before ended, and completes", async () => {
    // 8 routers at 12.5% allow 1 failure; the canary's first router spends it, the rest succeed.
    const { devices, models } = await r.fleet(8, (i) => (i === 0 ? { commandFailRate: 1 } : {}));
    const ruleId = await r.readyRule(models, "RUT9_R_99.04.01");
    const id = await r.start(ruleId, {
      canary: { count: 2 },
      waveSize: 6,
      concurrency: 4,
      successRate: 0,
      errorBudget: 0.125,
      deadlineMinutes: 10,
    });
    const done = await r.waitFor(id, (p) => p.status !== "running", "the rollout over", 90_000);
    expect(done.status).toBe("completed");
    expect(done.stages.map((stage) => [stage.succeeded, stage.failed])).toEqual([
      [1, 1],
      [6, 0],
    ]);
    const wave = new Set(devices.slice(2).map((device) => device.id));
    const sent = (
      await executionsOf(
        r,
        devices.map((device) => device.id),
      )
    ).filter((execution) => wave.has(execution.device_id));
    expect(sent).toHaveLength(6);
    // Never two under way at once: each wave router was sent after the one before it had ended.
    for (const [index, execution] of sent.entries()) {
      const before = sent[index - 1];
      if (!before) continue;
      expect(before.finish_time, `${before.device_id} ended`).not.toBeNull();
      expect(execution.create_time.getTime()).toBeGreaterThanOrEqual((before.finish_time as Date).getTime());
    }
  }, 150_000);
});
