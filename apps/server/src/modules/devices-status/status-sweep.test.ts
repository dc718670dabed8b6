import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainTopic } from "../../platform/bus/bus";
import { startPeriodicJob, tryTakeLease } from "../../platform/scheduler/lease";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { insertDevice } from "../ingest/ingest.test-support";
import { STATUS_SWEEP_JOB } from "./status-sweep.jobs";
import { runStatusSweep, STATUS_SWEEP_INTERVAL_MS } from "./status-sweep.service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const sweep = () => runStatusSweep({ db: t.db, bus: t.bus, now: t.clock.now });

async function lastStatus(id: string): Promise<string> {
  const row = await t.db
    .selectFrom("devices")
    .select("last_status")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return row.last_status;
}

describe("status sweep", () => {
  it("notices each threshold crossing once and pushes it to the device's domain only", async () => {
    // Clear out devices other tests of this file left behind, so counts are exact.
    await t.db.deleteFrom("devices").execute();
    const domain = await buildDomain(t);
    const other = await buildDomain(t);
    const d = await insertDevice(t, domain.id);
    const never = await insertDevice(t, domain.id);
    await t.db.updateTable("devices").set({ last_contact: t.clock.now() }).where("id", "=", d.id).execute();
    const mine: unknown[] = [];
    const theirs: unknown[] = [];
    const off1 = t.bus.subscribe(domainTopic(domain.id), (m) => mine.push(m));
    const off2 = t.bus.subscribe(domainTopic(other.id), (m) => theirs.push(m));
    try {
      // pending → online (the device never contacted stays pending and is not touched).
      expect(await sweep()).toBe(1);
      expect(await lastStatus(d.id)).toBe("online");
      expect(await lastStatus(never.id)).toBe("pending");
      expect(await sweep()).toBe(0);

      // Exactly 15 minutes is still online (inclusive threshold); one ms more is warning.
      t.clock.advanceMinutes(15);
      expect(await sweep()).toBe(0);
      t.clock.advance(1);
      expect(await sweep()).toBe(1);
      expect(await lastStatus(d.id)).toBe("warning");

      t.clock.advanceMinutes(45);
      expect(await sweep()).toBe(1);
      expect(await lastStatus(d.id)).toBe("critical");
      expect(await sweep()).toBe(0);

      await new Promise((resolve) => setTimeout(resolve, 20));
      const statuses = mine.map((m) => {
        const message = m as {
          type: string;
          action: string;
          content: Array<{ _id: string; status: string }>;
        };
        expect(message).toMatchObject({ type: "devices", action: "update" });
        return message.content.map((c) => `${c._id === d.id ? "d" : "?"}:${c.status}`).join(",");
      });
      expect(statuses).toEqual(["d:online", "d:warning", "d:critical"]);
      expect(theirs).toHaveLength(0);
    } finally {
      off1();
      off2();
    }
  });

  it("follows the domain's own thresholds", async () => {
    const domain = await buildDomain(t, {
      settings: {
        status: [
          { name: "online", minutes: 30 },
          { name: "warning", minutes: 120 },
        ],
        backup: { copies: 10 },
        journal: { copies: 10 },
      },
    });
    const d = await insertDevice(t, domain.id);
    await t.db
      .updateTable("devices")
      .set({ last_contact: new Date(t.clock.now().getTime() - 20 * 60_000), last_status: "online" })
      .where("id", "=", d.id)
      .execute();
    await sweep();
    expect(await lastStatus(d.id)).toBe("online");
  });
});

describe("the periodic sweep", () => {
  it("is a durable periodic job: enqueued when due by a worker's schedule tick, run by the dispatcher", async () => {
    expect(t.app.jobs.schedules()).toContainEqual({
      kind: STATUS_SWEEP_JOB,
      intervalMs: STATUS_SWEEP_INTERVAL_MS,
    });
    await t.db.deleteFrom("devices").execute();
    const domain = await buildDomain(t);
    const d = await insertDevice(t, domain.id);
    await t.db.updateTable("devices").set({ last_contact: t.clock.now() }).where("id", "=", d.id).execute();
    t.clock.advance(STATUS_SWEEP_INTERVAL_MS);
    expect(await t.jobs.runSchedules()).toContain(STATUS_SWEEP_JOB);
    await t.jobs.runUntilIdle();
    expect(await lastStatus(d.id)).toBe("online");
  });
});

describe("scheduler lease", () => {
  it("lets one holder at a time run a job, and another take over when the lease expires", async () => {
    const now = t.clock.now();
    expect(await tryTakeLease(t.db, "test-job", "node-a", now, 1000)).toBe(true);
    expect(await tryTakeLease(t.db, "test-job", "node-b", now, 1000)).toBe(false);
    expect(await tryTakeLease(t.db, "test-job", "node-a", now, 1000)).toBe(true);
    expect(await tryTakeLease(t.db, "test-job", "node-b", new Date(now.getTime() + 1000), 1000)).toBe(true);
  });

  it("runs the job only on the node holding the lease", async () => {
    let runs = 0;
    const log = { error() {} };
    const common = { db: t.db, name: "sweep-test", intervalMs: 60_000, now: t.clock.now, log };
    const a = startPeriodicJob({ ...common, holder: "a", run: async () => void runs++ }, false);
    const b = startPeriodicJob({ ...common, holder: "b", run: async () => void runs++ }, false);
    const results = await Promise.all([a.tick(), b.tick()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    await a.stop();
    await b.stop();
  });
});
