import type { RolloutProgress } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDevice } from "../ingest/ingest.test-support";
import { openRolloutFixture, type RolloutFixture, setLink, sumOfStages } from "./rollout.test-support";

// Issue 16's integration: a rollout over 200 simulated routers on the embedded broker, each taking
// its fw_update through the real command pump, the file transfer and a reboot, on both databases.

const NEW = "RUT9_R_99.02.00";
/** Planner order (by id): canary 0-9, waves 10-59, 60-109, 110-159, 160-199. */
const FAILING = new Set(Array.from({ length: 10 }, (_, i) => 10 + i * 20)); // 5%: 10, 30, …, 190
const SILENT = 105;

describe("a rollout over 200 routers", () => {
  let r: RolloutFixture;
  beforeAll(async () => {
    r = await openRolloutFixture();
  }, 120_000);
  afterAll(async () => r?.close());

  it("pauses past its error budget with 5% failing, pauses again on resume, and after 'retry failed' completes counting the router that never came back", async () => {
    const { devices, routers, models } = await r.fleet(200, (i) =>
      FAILING.has(i) ? { commandFailRate: 1 } : i === SILENT ? { rebootDowntimeMs: 3_600_000 } : {},
    );
    const ruleId = await r.readyRule(models, NEW);
    const id = await r.start(ruleId, {
      canary: { percent: 5 },
      waveSize: 50,
      concurrency: 50,
      successRate: 0.8,
      // 6 failures allowed: wave 1 fails 3, wave 2 fails 2 and loses the silent one, which reaches the
      // budget; so wave 3 goes one router at a time (ADR 021) and its first, failing, breaks it.
      errorBudget: 0.03,
      // 24 s of real time at the fixture's 50× clock: a healthy router under a loaded CI machine comes back
      // well within it (at 8 minutes, 9.6 s, one did not, once, and the rollout paused again).
      deadlineMinutes: 20,
    });
    const paused = await r.waitFor(
      id,
      (p) => p.status === "paused" && p.stages[3]?.sent === 0,
      "paused past the budget in wave 3, nothing under way",
      90_000,
    );
    expect(paused.stage).toBe(3);
    expect(paused.pause_reason).toBe("7 of 200 failed at stage 3");
    expect(paused.stages.map((stage) => stage.succeeded)).toEqual([10, 47, 47, 0, 0]);
    // Before the budget was kept per send, all 50 of wave 3 went out at once and 9 failed.
    expect(paused.stages[3]).toEqual({ waiting: 49, sent: 0, succeeded: 0, failed: 1, skipped: 0 });
    expect(paused.stages[4]?.waiting).toBe(40);
    expect(sumOfStages(paused, "failed")).toBe(7);
    const silent = devices[SILENT] as TestDevice;
    expect(paused.failures.find((failure) => failure.device_id === silent.id)?.reason).toMatch(
      /did not come back/,
    );
    expect(
      paused.failures
        .filter((failure) => failure.reason === "command failed")
        .map((failure) => failure.device_id),
    ).toEqual([10, 30, 50, 70, 90, 110].map((i) => devices[i]?.id));

    // Resume alone: still past the budget, so it pauses again at once and sends nothing more.
    const resumed = await r.f.post(r.root, `/api/rollout/${id}/resume`);
    expect(resumed.json<RolloutProgress>().status).toBe("running");
    const again = await r.waitFor(id, (p) => p.status === "paused", "paused again");
    expect(again.stages[4]?.waiting).toBe(40);

    // The failing routers of waves 1-3 are fixed (replaced by good ones, 130 and 150 before they
    // were sent); 170 and 190 still fail.
    for (const i of [10, 30, 50, 70, 90, 110, 130, 150]) {
      await routers[i]?.stop();
      setLink(await r.f.router(devices[i] as TestDevice), { csq: 25, roaming: false });
    }
    expect((await r.f.post(r.root, `/api/rollout/${id}/retry`)).statusCode).toBe(200);
    const done = await r.waitFor(id, (p) => p.status !== "running", "the rollout over", 90_000);
    expect(done.status).toBe("completed");
    expect(sumOfStages(done, "succeeded")).toBe(197);
    // The silent router was sent again and again did not come back: the rollout names it.
    expect(done.failures).toEqual(
      [
        { device_id: devices[170]?.id, stage: 4, reason: "command failed" },
        { device_id: devices[190]?.id, stage: 4, reason: "command failed" },
        {
          device_id: silent.id,
          stage: 2,
          reason: "did not come back on the version before the deadline",
        },
      ]
        // Each failure names its router's domain (ADR 031).
        .map((failure) => ({ ...failure, domain_id: devices[0]?.domainId }))
        .sort((a, b) => ((a.device_id as string) < (b.device_id as string) ? -1 : 1)),
    );
  }, 240_000);
});
