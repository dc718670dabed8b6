import { isRoaming, type RolloutDryRun, type RolloutProgress } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain } from "../../test/factories";
import { eventually, type TestDevice } from "../ingest/ingest.test-support";
import { openRolloutFixture, type RolloutFixture, setLink } from "./rollout.test-support";
import { modemsOf } from "./rollout-holds";

// What holds a rollout's router right before its fw_update (ADR 021): its own domain's maintenance
// window in that domain's time zone, and a weak link in its latest reports. Real routers, real sends.

const sentCommands = async (r: RolloutFixture, ids: string[]) =>
  (
    await r.f.t.db
      .selectFrom("command_executions")
      .select("device_id")
      .where("device_id", "in", ids)
      .execute()
  ).map((row) => row.device_id);

describe("rollout holds", () => {
  let r: RolloutFixture;
  beforeAll(async () => {
    r = await openRolloutFixture();
  }, 60_000);
  afterAll(async () => r?.close());

  it("sends each router only inside its own domain's window, read in that domain's time zone", async () => {
    // Two routers in a domain on Vladivostok time (UTC+10), one in a domain on UTC.
    await r.f.t.db
      .updateTable("domains")
      .set({ time_zone: "Asia/Vladivostok" })
      .where("id", "=", r.f.domainId)
      .execute();
    const utcDomain = (await buildDomain(r.f.t)).id;
    const { devices, models } = await r.fleet(3, undefined, (i) => (i < 2 ? r.f.domainId : utcDomain));
    const [far1, far2] = devices.filter((device) => device.domainId === r.f.domainId) as TestDevice[];
    const utc = devices.find((device) => device.domainId === utcDomain) as TestDevice;
    const ruleId = await r.readyRule(models, "RUT9_R_99.03.00");

    // 02:30 UTC is 12:30 in Vladivostok: inside a 02:00-04:00 window read in UTC, outside it there.
    r.holdClock();
    await r.setClockToUtc(2, 30);
    const id = await r.start(ruleId, {
      canary: { count: 3 },
      waveSize: 1,
      concurrency: 10,
      successRate: 1,
      errorBudget: 0,
      window: { start: 120, end: 240 },
    });
    const held = await r.waitFor(
      id,
      (p) => p.held.window === 2 && p.stages[0]?.sent === 1,
      "the UTC domain's router sent, Vladivostok's held",
    );
    expect(held.stages[0]).toMatchObject({ waiting: 2, sent: 1 });
    expect(held.held).toEqual({ offer: 0, window: 2, cellEdge: 0, backupSim: 0, roaming: 0 });
    expect(
      await sentCommands(
        r,
        devices.map((device) => device.id),
      ),
    ).toEqual([utc.id]);

    await eventually(
      async () =>
        (await r.f.t.db.selectFrom("devices").select("firmware").where("id", "=", utc.id).executeTakeFirst())
          ?.firmware === "RUT9_R_99.03.00",
      "the UTC domain's router back on the version",
    );

    // 16:30 UTC is 02:30 in Vladivostok: inside its window (and outside the UTC domain's).
    await r.setClockToUtc(16, 30);
    r.runClock();
    const done = await r.waitFor(id, (p) => p.status === "completed", "every router updated");
    expect(done.stages[0]?.succeeded).toBe(3);
    expect(done.held).toEqual({ offer: 0, window: 0, cellEdge: 0, backupSim: 0, roaming: 0 });
    expect((await sentCommands(r, [far1.id, far2.id])).sort()).toEqual([far1.id, far2.id].sort());
  }, 120_000);

  it("re-checks each router's link right before sending: roaming and cell edge wait, and go once home and in signal", async () => {
    const { devices, routers, models } = await r.fleet(3);
    const ruleId = await r.readyRule(models, "RUT9_R_99.04.00");
    // The plan takes all three; one at a time, so the others are sent only later.
    r.holdClock();
    const id = await r.start(ruleId, {
      canary: { count: 3 },
      waveSize: 1,
      concurrency: 1,
      successRate: 1,
      errorBudget: 0,
    });
    await r.waitFor(id, (p) => p.stages[0]?.sent === 1, "the first router sent");
    // Between the plan and their send, router 1 drifts to the cell edge and router 2 roams.
    const [, edge, roamer] = devices as [TestDevice, TestDevice, TestDevice];
    setLink(routers[1] as (typeof routers)[number], { csq: 5, roaming: false });
    setLink(routers[2] as (typeof routers)[number], { csq: 25, roaming: true });
    await eventually(async () => {
      const reports = await r.f.t.db
        .selectFrom("devices as d")
        .leftJoin("device_collects as c", (join) =>
          join.onRef("c.device_id", "=", "d.id").on("c.type", "=", "modems"),
        )
        .select(["d.id", "d.signal_csq", "c.data"])
        .where("d.id", "in", [edge.id, roamer.id])
        .execute();
      const of = (id: string) => reports.find((report) => report.id === id);
      return of(edge.id)?.signal_csq === 5 && isRoaming(modemsOf(of(roamer.id)?.data));
    }, "the weak links reported");
    r.runClock();
    const waiting = await r.waitFor(
      id,
      (p) => p.stages[0]?.succeeded === 1 && p.held.cellEdge === 1 && p.held.roaming === 1,
      "the first updated, the other two held",
    );
    expect(waiting.status).toBe("running");
    expect(waiting.stages[0]).toMatchObject({ waiting: 2, sent: 0, failed: 0 });
    // Held only after the plan: no router waited at the start, so no stage is the link-wait one.
    expect(waiting.link_stage).toBeNull();
    expect(await sentCommands(r, [edge.id, roamer.id])).toEqual([]);

    // Back home and in signal: both are sent and the rollout completes.
    setLink(routers[1] as (typeof routers)[number], { csq: 25, roaming: false });
    setLink(routers[2] as (typeof routers)[number], { csq: 25, roaming: false });
    const done: RolloutProgress = await r.waitFor(id, (p) => p.status === "completed", "all updated");
    expect(done.stages[0]?.succeeded).toBe(3);
    expect(done.held).toEqual({ offer: 0, window: 0, cellEdge: 0, backupSim: 0, roaming: 0 });
  }, 120_000);

  it("plans a router roaming at the start as held after the waves, keeps its hold true, sends it once home", async () => {
    const { devices, routers, models } = await r.fleet(3);
    const [first, second, roamer] = devices as [TestDevice, TestDevice, TestDevice];
    const roaming = routers[2] as (typeof routers)[number];
    setLink(roaming, { csq: 25, roaming: true });
    const reported = async (check: (report: { signal_csq: number | null; data: unknown }) => boolean) => {
      const report = await r.f.t.db
        .selectFrom("devices as d")
        .leftJoin("device_collects as c", (join) =>
          join.onRef("c.device_id", "=", "d.id").on("c.type", "=", "modems"),
        )
        .select(["d.signal_csq", "c.data"])
        .where("d.id", "=", roamer.id)
        .executeTakeFirst();
      return report !== undefined && check(report);
    };
    await eventually(() => reported((report) => isRoaming(modemsOf(report.data))), "roaming reported");
    const ruleId = await r.readyRule(models, "RUT9_R_99.05.00");
    const options = { canary: { count: 1 }, waveSize: 1, concurrency: 1, successRate: 1, errorBudget: 0 };

    // The dry run: the roaming router will wait for a better link (not skipped), after the waves.
    const planned = await r.f.post(r.root, `/api/software/${ruleId}/rollout/dry-run`, options);
    const plan = planned.json<RolloutDryRun>();
    expect(plan.stages.map((stage) => stage.map((router) => router._id))).toEqual([[first.id], [second.id]]);
    expect(plan.waiting.map((router) => [router._id, router.reason])).toEqual([[roamer.id, "roaming"]]);
    expect(plan.skipped.map((router) => router._id)).not.toContain(roamer.id);

    // Started on a held clock: the canary goes, the roaming router is a held third stage.
    r.holdClock();
    const id = await r.start(ruleId, options);
    const started = await r.waitFor(id, (p) => p.stages[0]?.sent === 1, "the canary sent");
    expect(started.total).toBe(3);
    expect(started.stages.map((stage) => stage.waiting + stage.sent)).toEqual([1, 1, 1]);
    // The third and last stage is the one waiting for a better link, stored with the rollout.
    expect(started.link_stage).toBe(2);
    expect(started.held).toEqual({ offer: 0, window: 0, cellEdge: 0, backupSim: 0, roaming: 1 });

    // Its link changes while an earlier stage runs: the next advance's one look at the held says so.
    setLink(roaming, { csq: 5, roaming: true });
    await eventually(() => reported((report) => report.signal_csq === 5), "cell edge reported");
    r.f.t.clock.advance(5_000);
    const edge = await r.waitFor(id, (p) => p.held.cellEdge === 1, "the hold re-read");
    expect(edge.stage).toBeLessThan(2);
    expect(edge.held.roaming).toBe(0);

    // The waves done, the rollout waits on its last stage while the router is still roaming.
    r.runClock();
    setLink(roaming, { csq: 25, roaming: true });
    const last = await r.waitFor(
      id,
      (p) => p.stage === 2 && p.stages[1]?.succeeded === 1 && p.held.roaming === 1,
      "the waves done, the roaming router held",
    );
    expect(last.status).toBe("running");
    expect(last.stages[2]).toMatchObject({ waiting: 1, sent: 0 });
    expect(await sentCommands(r, [roamer.id])).toEqual([]);

    // Home network: sent by the re-check, and only its update completes the rollout.
    setLink(roaming, { csq: 25, roaming: false });
    const done = await r.waitFor(id, (p) => p.status === "completed", "the roaming router updated");
    expect(done.stages.map((stage) => stage.succeeded)).toEqual([1, 1, 1]);
    expect(done.link_stage).toBe(2);
    expect(done.held).toEqual({ offer: 0, window: 0, cellEdge: 0, backupSim: 0, roaming: 0 });
    expect(await sentCommands(r, [roamer.id])).toEqual([roamer.id]);
  }, 120_000);
});
