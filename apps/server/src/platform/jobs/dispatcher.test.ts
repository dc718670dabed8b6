import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeRetryDelayMs } from "./backoff";
import { jobsRepo } from "./jobs.repo";
import { createJobsHarness, type JobsHarness } from "./jobs.test-support";

// The dispatcher on a real database (PGlite, or PostgreSQL with DATABASE_URL): what is enqueued in a
// transaction exists exactly when it commits, and no failure of a handler loses its job.

let h: JobsHarness;
const calls = new Map<string, number>();
const count = (kind: string) => calls.set(kind, (calls.get(kind) ?? 0) + 1);
let isFlakyUp = false;
const release: Array<() => void> = [];

beforeAll(async () => {
  h = await createJobsHarness();
  h.jobs.register("test.ok", { handle: async () => void count("test.ok") });
  h.jobs.register("test.throws", {
    maxAttempts: 4,
    backoff: { baseMs: 1000, maxMs: 4000 },
    handle: async () => {
      count("test.throws");
      throw new Error("the far side refused");
    },
  });
  h.jobs.register("test.throws-sync", {
    maxAttempts: 1,
    // Not async: a handler that throws before it returns a promise must be caught all the same.
    handle: () => {
      throw "a bare string";
    },
  });
  h.jobs.register("test.hangs", {
    maxAttempts: 3,
    timeoutMs: 50,
    backoff: { baseMs: 10, maxMs: 10 },
    handle: async ({ attempt, signal }) => {
      count("test.hangs");
      if (attempt === 1)
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
    },
  });
  h.jobs.register("test.flaky", {
    backoff: { baseMs: 100, maxMs: 100 },
    handle: async () => {
      count("test.flaky");
      if (!isFlakyUp) throw new Error("down");
    },
  });
  h.jobs.register("test.secret", {
    handle: async ({ secret, payload }) => {
      if (secret !== "s3cret-Password" || payload.to !== "a@b.c") throw new Error("secret not opened");
      count("test.secret");
    },
  });
  h.jobs.register("test.blocks", {
    handle: () => new Promise<void>((resolve) => release.push(resolve)),
  });
  h.jobs.subscribe("device.created", "notify", { handle: async () => void count("notify") });
  h.jobs.subscribe("device.created", "audit", {
    backoff: { baseMs: 100, maxMs: 100 },
    handle: async ({ attempt }) => {
      count("audit");
      if (attempt === 1) throw new Error("audit store busy");
    },
  });
});
afterAll(async () => {
  await h?.close();
});

describe("enqueue in the service's transaction", () => {
  it("writes no job when the transaction rolls back, and one when it commits", async () => {
    let id: string | null = null;
    await expect(
      h.db.transaction().execute(async (trx) => {
        id = await h.jobs.enqueue(trx, { kind: "test.ok", payload: { n: 1 } });
        throw new Error("the service's own write failed");
      }),
    ).rejects.toThrow("own write failed");
    expect(id).not.toBeNull();
    const rolledBack = await h.db
      .selectFrom("jobs")
      .select("id")
      .where("id", "=", id as unknown as string)
      .execute();
    expect(rolledBack).toEqual([]);

    const committed = await h.jobs.transaction((trx) => h.jobs.enqueue(trx, { kind: "test.ok" }));
    expect(committed).not.toBeNull();
    const row = await h.job(committed as string);
    expect(row.state).toBe("queued");
    expect(row.run_at.getTime()).toBe(h.clock.now().getTime());
    await h.dispatcher.runUntilIdle();
    expect((await h.job(committed as string)).state).toBe("done");
  });

  it("refuses a kind no handler is registered for", async () => {
    await expect(
      h.db.transaction().execute((trx) => h.jobs.enqueue(trx, { kind: "test.nobody" })),
    ).rejects.toThrow("No handler");
  });

  it("makes a second enqueue with a live job's dedupe key a no-op, and frees the key once done", async () => {
    const first = await h.jobs.enqueue(h.db, { kind: "test.ok", dedupeKey: "daily-report" });
    const second = await h.jobs.enqueue(h.db, { kind: "test.ok", dedupeKey: "daily-report" });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    const live = await h.db
      .selectFrom("jobs")
      .select("id")
      .where("dedupe_key", "=", "daily-report")
      .execute();
    expect(live).toHaveLength(1);
    await h.dispatcher.runUntilIdle();
    expect(await h.jobs.enqueue(h.db, { kind: "test.ok", dedupeKey: "daily-report" })).not.toBeNull();
    await h.dispatcher.runUntilIdle();
  });

  it("keeps a secret sealed in the row, opens it for the handler, and erases it once done", async () => {
    const id = (await h.jobs.enqueue(h.db, {
      kind: "test.secret",
      payload: { to: "a@b.c" },
      secret: "s3cret-Password",
    })) as string;
    const queued = await h.job(id);
    expect(JSON.stringify(queued)).not.toContain("s3cret-Password");
    expect(queued.sealed).toMatch(/^v1\./);
    await h.dispatcher.runUntilIdle();
    const done = await h.job(id);
    expect(done.state).toBe("done");
    expect(done.sealed).toBeNull();
    expect(calls.get("test.secret")).toBe(1);
  });

  it("fans an outbox event out to one job per subscriber, each retried on its own", async () => {
    const written = await h.jobs.transaction((trx) =>
      h.jobs.emit(trx, "device.created", { deviceId: "d1" }, { domainId: null }),
    );
    expect(written).toBe(2);
    await h.dispatcher.runUntilIdle();
    expect(calls.get("notify")).toBe(1);
    expect(calls.get("audit")).toBe(1);
    h.clock.advance(100);
    await h.dispatcher.runUntilIdle();
    expect(calls.get("notify")).toBe(1);
    expect(calls.get("audit")).toBe(2);
    const states = await h.db
      .selectFrom("jobs")
      .select(["kind", "state"])
      .where("kind", "like", "device.created:%")
      .execute();
    expect(states.map((row) => row.state)).toEqual(["done", "done"]);
  });
});

describe("retries", () => {
  it("backs off exponentially with jitter inside its bounds, up to the kind's maximum, then dies", async () => {
    const id = (await h.jobs.enqueue(h.db, { kind: "test.throws" })) as string;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const before = h.clock.now().getTime();
      await h.dispatcher.runUntilIdle();
      const row = await h.job(id);
      expect(row.attempts).toBe(attempt);
      expect(row.last_error).toContain("the far side refused");
      if (attempt < 4) {
        expect(row.state).toBe("failed");
        const delay = row.run_at.getTime() - before;
        const step = Math.min(4000, 1000 * 2 ** (attempt - 1));
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(step);
        delays.push(delay);
        // Not due yet: nothing runs until the clock reaches run_at.
        h.clock.advance(delay - 1);
        await h.dispatcher.runUntilIdle();
        expect((await h.job(id)).attempts).toBe(attempt);
        h.clock.advance(1);
      } else {
        expect(row.state).toBe("dead");
        expect(row.finish_time).not.toBeNull();
      }
    }
    expect(delays[1]).toBeGreaterThanOrEqual(delays[0] as number);
    expect(delays[2]).toBeGreaterThanOrEqual(delays[1] as number);
    expect(calls.get("test.throws")).toBe(4);
    // Dead stays dead: no more attempts however long one waits.
    h.clock.advance(3600_000);
    await h.dispatcher.runUntilIdle();
    expect(calls.get("test.throws")).toBe(4);
    // Until a person retries it: a full set of attempts again.
    const revived = await jobsRepo(h.db).requeueJobAcrossDomains(id, h.clock.now());
    expect(revived).toMatchObject({ state: "queued", attempts: 0 });
    await h.dispatcher.runUntilIdle();
    expect(await h.job(id)).toMatchObject({ state: "failed", attempts: 1 });
    expect(calls.get("test.throws")).toBe(5);
    // Spend its attempts, so no job of this test falls due while a later one moves the clock on.
    for (let attempt = 2; attempt <= 4; attempt++) {
      h.clock.advance(4000);
      await h.dispatcher.runUntilIdle();
    }
    expect(await h.job(id)).toMatchObject({ state: "dead", attempts: 4 });
  });

  it("computes equal-jitter steps capped at the maximum", () => {
    const policy = { baseMs: 1000, maxMs: 8000 };
    expect(computeRetryDelayMs(policy, 1, () => 0)).toBe(500);
    expect(computeRetryDelayMs(policy, 1, () => 1)).toBe(1000);
    expect(computeRetryDelayMs(policy, 3, () => 0.5)).toBe(3000);
    expect(computeRetryDelayMs(policy, 30, () => 1)).toBe(8000);
  });

  it("keeps the job of a handler that throws a non-error synchronously", async () => {
    const id = (await h.jobs.enqueue(h.db, { kind: "test.throws-sync" })) as string;
    await h.dispatcher.runUntilIdle();
    const row = await h.job(id);
    expect(row.state).toBe("dead");
    expect(row.last_error).toContain("a bare string");
  });

  it("fails an attempt that runs past its timeout and runs the job again", async () => {
    const id = (await h.jobs.enqueue(h.db, { kind: "test.hangs" })) as string;
    await h.dispatcher.runUntilIdle();
    const timedOut = await h.job(id);
    expect(timedOut.state).toBe("failed");
    expect(timedOut.last_error).toContain("longer than 50 ms");
    h.clock.advance(10);
    await h.dispatcher.runUntilIdle();
    expect((await h.job(id)).state).toBe("done");
    expect(calls.get("test.hangs")).toBe(2);
  });

  it("never loses a failing job: a failed job runs again when its handler recovers", async () => {
    const id = (await h.jobs.enqueue(h.db, { kind: "test.flaky" })) as string;
    for (let i = 0; i < 3; i++) {
      await h.dispatcher.runUntilIdle();
      h.clock.advance(100);
    }
    expect((await h.job(id)).state).toBe("failed");
    isFlakyUp = true;
    await h.dispatcher.runUntilIdle();
    const row = await h.job(id);
    expect(row.state).toBe("done");
    expect(row.attempts).toBe(4);
  });
});

describe("a started dispatcher", () => {
  it("keeps claiming while its slots are full and free again (one slot, polling only)", async () => {
    const node = h.addNode("node-one-slot", { concurrency: 1, pollMs: 20 });
    const ids = await h.db.transaction().execute(async (trx) => {
      const written: string[] = [];
      for (let i = 0; i < 6; i++) written.push((await h.jobs.enqueue(trx, { kind: "test.ok" })) as string);
      return written;
    });
    node.start();
    await waitUntil(async () => {
      const rows = await h.db.selectFrom("jobs").select("state").where("id", "in", ids).execute();
      return rows.every((row) => row.state === "done");
    });
    await node.stop();
  });
});

describe("the heartbeat", () => {
  it("keeps moving a long handler's lease on, so the watchdog leaves it alone", async () => {
    const node = h.addNode("node-beating", { leaseMs: 300, pollMs: 20 });
    const id = (await h.jobs.enqueue(h.db, { kind: "test.blocks" })) as string;
    node.start();
    await waitUntil(async () => (await h.job(id)).locked_by === "node-beating");
    const first = (await h.job(id)).locked_until as Date;
    h.clock.advance(250);
    await waitUntil(async () => ((await h.job(id)).locked_until as Date) > first);
    h.clock.advance(250);
    // 500 ms after the claim, past the first lease; renewed, so not returned.
    await waitUntil(async () => ((await h.job(id)).locked_until as Date).getTime() > h.clock.now().getTime());
    expect(await h.dispatcher.returnExpired()).toBe(0);
    release.shift()?.();
    await node.stop();
    expect((await h.job(id)).state).toBe("done");
  });
});

describe("the watchdog", () => {
  it("returns the job of a node that died, and another node runs it", async () => {
    // A job of an earlier test still waiting would fall due with the clock moved on below, and the
    // dead node, its run ending, could claim the returned job before the live one does.
    expect(await liveJobKinds()).toEqual([]);
    const id = (await h.jobs.enqueue(h.db, { kind: "test.ok", payload: { n: 7 } })) as string;
    const dead = h.addNode("node-dead", { leaseMs: 30_000 });
    // The dead node claimed it (its handler blocks for ever, as if the process were gone).
    const blocked = (await h.jobs.enqueue(h.db, { kind: "test.blocks" })) as string;
    await h.db
      .updateTable("jobs")
      .set({ run_at: new Date(h.clock.now().getTime() + 1) })
      .where("id", "=", id)
      .execute();
    const claiming = dead.runUntilIdle();
    await waitUntil(async () => (await h.job(blocked)).state === "running");
    expect((await h.job(blocked)).locked_by).toBe("node-dead");
    expect(await h.dispatcher.returnExpired()).toBe(0);
    h.clock.advance(30_001);
    expect(await h.dispatcher.returnExpired()).toBe(1);
    // Returned, and at once claimed again by the live node.
    await waitUntil(async () => (await h.job(blocked)).locked_by === "node-a");
    const returned = await h.job(blocked);
    expect(returned.state).toBe("running");
    expect(returned.attempts).toBe(2);
    expect(returned.last_error).toContain("lease expired");
    await waitUntil(async () => (await h.job(id)).state === "done");
    // The dead node waking up cannot mark a job it no longer holds.
    release.shift()?.();
    await claiming;
    expect((await h.job(blocked)).state).toBe("running");
    release.shift()?.();
    await h.dispatcher.runUntilIdle();
    const finished = await h.job(blocked);
    expect(finished.state).toBe("done");
    expect(finished.attempts).toBe(2);
  });

  it("makes a job dead when the attempt its node died in was its last", async () => {
    const id = (await h.jobs.enqueue(h.db, { kind: "test.blocks", maxAttempts: 1 })) as string;
    const dying = h.addNode("node-dying");
    const claiming = dying.runUntilIdle();
    await waitUntil(async () => (await h.job(id)).state === "running");
    h.clock.advance(30_001);
    expect(await h.dispatcher.returnExpired()).toBe(1);
    expect((await h.job(id)).state).toBe("dead");
    release.shift()?.();
    await claiming;
    expect((await h.job(id)).state).toBe("dead");
  });
});

describe("the cleanup", () => {
  it("deletes done jobs a week after they finished, and keeps every other state", async () => {
    const done = (await h.jobs.enqueue(h.db, { kind: "test.ok" })) as string;
    await h.dispatcher.runUntilIdle();
    const waiting = (await h.jobs.enqueue(h.db, {
      kind: "test.ok",
      runAt: new Date(h.clock.now().getTime() + 1e10),
    })) as string;
    h.clock.advance(7 * 24 * 3600_000 - 1000);
    await h.dispatcher.deleteOldDone();
    expect((await h.job(done)).state).toBe("done");
    h.clock.advance(2000);
    expect(await h.dispatcher.deleteOldDone()).toBeGreaterThanOrEqual(1);
    const left = await h.db.selectFrom("jobs").select("id").where("id", "in", [done, waiting]).execute();
    expect(left.map((row) => row.id)).toEqual([waiting]);
    const dead = await h.db.selectFrom("jobs").select("id").where("state", "=", "dead").execute();
    expect(dead.length).toBeGreaterThan(0);
  });
});

/** The kinds of jobs that are neither done nor dead. */
async function liveJobKinds(): Promise<string[]> {
  const rows = await h.db
    .selectFrom("jobs")
    .select("kind")
    .where("state", "not in", ["done", "dead"])
    .execute();
  return rows.map((row) => row.kind);
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
