import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  errorBudgetCount,
  isRoaming,
  mayRolloutSend,
  planRollout,
  type RolloutCandidate,
  rolloutGate,
} from "./rollout";
import { RolloutStartRequestSchema } from "./rollout-driver";

const router = (id: string, overrides: Partial<RolloutCandidate> = {}): RolloutCandidate => ({
  id,
  model: "RUT955",
  firmware: "RUT9_R_00.07.06.10",
  csq: 20,
  isOnBackupSim: false,
  isRoaming: false,
  ...overrides,
});
const target = { models: ["RUT955"], version: "RUT9_R_00.07.08.2" };
const gate = { successRate: 0.95, errorBudget: 0.05 };

describe("planRollout", () => {
  it("takes the canary from the routers connected now first, the waves in id order after it", () => {
    const routers = [
      router("r00", { isConnected: false }),
      router("r01"),
      router("r02", { isConnected: true }),
      router("r03", { isConnected: true }),
      router("r04", { isConnected: false }),
    ];
    const plan = planRollout(routers, target, { canary: { count: 2 }, waveSize: 2 });
    expect(plan.stages).toEqual([["r02", "r03"], ["r00", "r01"], ["r04"]]);
    // None connected, or none known: the canary is the first by id, as before.
    const unknown = planRollout(
      routers.map((r) => ({ ...r, isConnected: undefined })),
      target,
      {
        canary: { count: 2 },
        waveSize: 2,
      },
    );
    expect(unknown.stages[0]).toEqual(["r00", "r01"]);
  });

  it("skips other models, unknown and current versions; poor links wait after the waves; canary then waves", () => {
    const routers = [
      ...Array.from({ length: 12 }, (_, i) => router(`r${String(i).padStart(2, "0")}`)),
      router("x1", { model: "RUTX11" }),
      router("x2", { firmware: null }),
      router("x3", { firmware: target.version }),
      router("x4", { csq: 5 }),
      router("x5", { isOnBackupSim: true }),
      router("x6", { isRoaming: true }),
    ];
    const plan = planRollout(routers, target, { canary: { count: 2 }, waveSize: 4 });
    expect(plan.stages.map((stage) => stage.length)).toEqual([2, 4, 4, 2]);
    expect(plan.stages[0]).toEqual(["r00", "r01"]);
    expect(plan.skipped).toEqual([
      { id: "x1", reason: "otherModel" },
      { id: "x2", reason: "noVersion" },
      { id: "x3", reason: "alreadyOnVersion" },
    ]);
    // On a weak link now: in the plan, waiting with their reason, in none of the waves.
    expect(plan.waiting).toEqual([
      { id: "x4", reason: "cellEdge" },
      { id: "x5", reason: "backupSim" },
      { id: "x6", reason: "roaming" },
    ]);
    expect(plan.stages.flat()).not.toContain("x6");
  });

  it("a percentage canary rounds up; every ready router is in exactly one stage", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 50 }),
        (n, percent, wave) => {
          const routers = Array.from({ length: n }, (_, i) => router(`r${i}`));
          const plan = planRollout(routers, target, { canary: { percent }, waveSize: wave });
          const all = plan.stages.flat();
          expect(new Set(all).size).toBe(n);
          if (n > 0) expect(plan.stages[0]?.length).toBe(Math.ceil((n * percent) / 100));
          for (const stage of plan.stages.slice(1)) expect(stage.length).toBeLessThanOrEqual(wave);
        },
      ),
    );
  });
});

describe("rolloutGate", () => {
  it("waits while a stage runs, moves on at its success rate, ends after the last", () => {
    expect(rolloutGate({ total: 10, succeeded: 5, failed: 0 }, { total: 200, failed: 0 }, false, gate)).toBe(
      "wait",
    );
    expect(rolloutGate({ total: 10, succeeded: 10, failed: 0 }, { total: 200, failed: 0 }, false, gate)).toBe(
      "nextStage",
    );
    expect(rolloutGate({ total: 10, succeeded: 10, failed: 0 }, { total: 200, failed: 0 }, true, gate)).toBe(
      "done",
    );
  });

  it("pauses past the error budget, and when a finished stage fell short of its rate", () => {
    // 200 routers at a 5% budget allow 10 failures: the 11th pauses, even mid-stage.
    expect(errorBudgetCount(200, 0.05)).toBe(10);
    const midStage = { total: 100, succeeded: 40 };
    expect(rolloutGate({ ...midStage, failed: 10 }, { total: 200, failed: 10 }, false, gate)).toBe("wait");
    expect(rolloutGate({ ...midStage, failed: 11 }, { total: 200, failed: 11 }, false, gate)).toBe("pause");
    // Within the budget, but a finished stage short of its success rate: pause rather than spread it.
    const shortStage = { total: 20, succeeded: 18, failed: 2 };
    expect(rolloutGate(shortStage, { total: 200, failed: 2 }, false, gate)).toBe("pause");
  });
});

describe("mayRolloutSend", () => {
  // 200 routers at 5% allow 10 failures; up to 50 under way.
  const options = { concurrency: 50, errorBudget: 0.05 };
  const send = (failed: number, inFlight: number, total = 200) =>
    mayRolloutSend({ total, failed, inFlight }, options);

  it("sends up to the concurrency cap while the failures are under the budget", () => {
    expect(send(0, 49)).toBe(true);
    expect(send(0, 50)).toBe(false);
    expect(send(9, 49)).toBe(true);
  });

  it("at the budget sends only when nothing is under way; past it, never", () => {
    expect(send(10, 1)).toBe(false);
    expect(send(10, 0)).toBe(true);
    expect(send(11, 0)).toBe(false);
  });

  it("takes a budget of 0 as reached by the first failure, not before", () => {
    // 15 routers at 5% allow none: the full cap goes until a failure, which pauses.
    expect(send(0, 10, 15)).toBe(true);
    expect(send(1, 0, 15)).toBe(false);
  });
});

describe("isRoaming", () => {
  const modem = (primary: boolean, state: number, roaming?: boolean) => ({ primary, state, roaming });
  it("reads the modem carrying the data: the online primary, else the first online", () => {
    expect(isRoaming([modem(true, 1, true), modem(false, 1, false)])).toBe(true);
    expect(isRoaming([modem(true, 1, false), modem(false, 1, true)])).toBe(false);
    expect(isRoaming([modem(true, 0, false), modem(false, 1, true)])).toBe(true);
    expect(isRoaming([modem(true, 0, true)])).toBe(false);
  });
  it("takes an agent that does not say as not roaming", () => {
    expect(isRoaming([modem(true, 1)])).toBe(false);
    expect(isRoaming([])).toBe(false);
  });
});

describe("RolloutStartRequestSchema's window", () => {
  const start = { canary: { count: 1 }, waveSize: 1 };
  it("takes none, or two different minutes of the day (start after end wraps midnight)", () => {
    expect(RolloutStartRequestSchema.parse(start).window).toBeNull();
    expect(RolloutStartRequestSchema.parse({ ...start, window: { start: 1380, end: 120 } }).window).toEqual({
      start: 1380,
      end: 120,
    });
  });
  it("refuses a window that never opens and minutes past the day", () => {
    expect(RolloutStartRequestSchema.safeParse({ ...start, window: { start: 120, end: 120 } }).success).toBe(
      false,
    );
    expect(RolloutStartRequestSchema.safeParse({ ...start, window: { start: 0, end: 1440 } }).success).toBe(
      false,
    );
  });
});
