import type { DeviceUsage } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { WATCHDOG_JOB } from "../actions/actions.jobs";
import { callApi } from "../devices/devices.test-support";
import { STATUS_SWEEP_JOB } from "../devices-status/status-sweep.jobs";
import { FILE_SWEEP_JOB } from "../files/files.jobs";
import { LICENSE_REFRESH_ALL_JOB } from "../licences/licences.jobs";
import { NOTIFY_CLEANUP_JOB, NOTIFY_TIMERS_JOB } from "../notifications/engine/timers";
import { SCHEDULE_CATCH_UP_JOB } from "../schedules/schedules.jobs";
import { RECORDINGS_RETENTION_JOB } from "../tunnels/recordings.jobs";
import { UPTIME_MAIL_CATCH_UP_JOB } from "../uptime/uptime-mail.jobs";
import { HISTORY_MAINTENANCE_JOB } from "./history.jobs";
import { createFeeder, type Feeder, SIM_A, SIM_B } from "./insight.test-support";
import { checkDataPlans, DATA_PLAN_CHECK_JOB, DATA_PLAN_EVENT_KIND } from "./plans.jobs";

// SIM usage by ICCID through the real ingest pipeline: a SIM moved from one router to another keeps
// its history, a counter reset at reboot is counted from zero, and a plan's thresholds raise events.

const MB = 1024 * 1024;
let t: TestApp;
let domainId: string;
let admin: { username: string; password: string };
let assistant: { username: string; password: string };
let operator: { username: string; password: string };
let first: { id: string; ident: string };
let second: { id: string; ident: string };
let feedFirst: Feeder;
let feedSecond: Feeder;

const as = async (who: { username: string; password: string }, url: string, body?: unknown) =>
  callApi(t, await signIn(t.app, who), "POST", url, body ?? {});
const usageOf = async (deviceId: string) =>
  (await as(operator, `/api/device/${deviceId}/usage`)).body as DeviceUsage;
const state = (iccid: string, sim: number, rx: number, tx: number) => ({
  sim,
  iccid,
  operator: "MegaFon",
  band: "B3",
  rsrp: -90,
  rx,
  tx,
});

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  domainId = (await buildDomain(t)).id;
  admin = await buildUser(t, { role: 2, domainId });
  assistant = await buildUser(t, { role: 3, domainId });
  operator = await buildUser(t, { role: 4, domainId });
  first = await buildDevice(t, domainId, { tags: ["field", "metered"] });
  second = await buildDevice(t, domainId);
  feedFirst = createFeeder(t, first.ident);
  feedSecond = createFeeder(t, second.ident);
  // SIM A in the first router: 10 MB down, 1 MB up; a reboot resets the counters; 2 MB more.
  await feedFirst.modems(state(SIM_A, 1, 0, 0));
  t.clock.advanceMinutes(1);
  await feedFirst.modems(state(SIM_A, 1, 10 * MB, MB));
  t.clock.advanceMinutes(1);
  await feedFirst.modems(state(SIM_A, 1, 2 * MB, 0));
  // SIM A moves to the second router's slot 2; SIM B takes its place in the first.
  t.clock.advanceMinutes(1);
  await feedFirst.modems(state(SIM_B, 1, 0, 0));
  await feedSecond.modems(state(SIM_A, 2, 0, 0));
  t.clock.advanceMinutes(1);
  await feedSecond.modems(state(SIM_A, 2, 3 * MB, 0));
  await feedFirst.modems(state(SIM_B, 1, 5 * MB, 0));
});
afterAll(async () => {
  await feedFirst?.close();
  await feedSecond?.close();
  await t?.close();
});

describe("POST /api/device/{dev_id}/usage", () => {
  it("keys usage by ICCID: the SIM moved away keeps its history, a counter reset counts from zero", async () => {
    const { sims } = await usageOf(first.id);
    expect(sims.map((sim) => [sim.iccid, sim.is_here, sim.device.ident, sim.slot])).toEqual([
      [SIM_B, true, first.ident, 1],
      [SIM_A, false, second.ident, 2],
    ]);
    const simA = sims[1];
    expect(simA?.days).toHaveLength(31);
    expect(simA?.period.rx).toBe(10 * MB + 2 * MB + 3 * MB);
    expect(simA?.period.tx).toBe(MB);
    expect(simA?.days.at(-1)?.rx).toBe(15 * MB);
    expect(sims[0]?.period.rx).toBe(5 * MB);
    // Without a plan: the calendar month, no percent.
    expect(sims[0]?.plan).toBeNull();
    expect(sims[0]?.period.start.endsWith("-01")).toBe(true);
    const { sims: there } = await usageOf(second.id);
    expect(there.map((sim) => [sim.iccid, sim.is_here])).toEqual([[SIM_A, true]]);
  });

  it("answers 404 for another domain's router and 401 without a session", async () => {
    const stranger = await buildUser(t, { role: 2, domainId: (await buildDomain(t)).id });
    expect((await as(stranger, `/api/device/${first.id}/usage`)).body.code).toBe("DEVICE_NOT_FOUND");
    expect((await callApi(t, null, "POST", `/api/device/${first.id}/usage`, {})).status).toBe(401);
  });
});

describe("data plans", () => {
  it("are set by admins only, per SIM or per tag, with a clear 400 for a bad ICCID or plan", async () => {
    const plan = { plan_bytes: 20 * MB, reset_day: 1 };
    expect((await as(operator, `/api/sim/${SIM_B}/plan`, { plan })).status).toBe(403);
    expect((await as(assistant, "/api/plans/tag", { tag: "metered", plan })).status).toBe(403);
    expect((await as(admin, "/api/sim/12AB/plan", { plan })).body.code).toBe("BAD_REQUEST");
    expect(
      (await as(admin, `/api/sim/${SIM_B}/plan`, { plan: { plan_bytes: 0, reset_day: 40 } })).status,
    ).toBe(400);
    expect((await as(admin, "/api/plans/tag", { tag: "x", plan })).status).toBe(400);
    const set = await as(admin, "/api/plans/tag", {
      tag: "metered",
      plan: { plan_bytes: 6 * MB, reset_day: 1 },
    });
    expect(set.body).toEqual({ plans: [{ tag: "metered", plan_bytes: 6 * MB, reset_day: 1 }] });
    expect((await as(operator, "/api/plans")).body.plans).toHaveLength(1);
    const { sims } = await usageOf(first.id);
    expect(sims[0]?.plan).toEqual({ plan_bytes: 6 * MB, reset_day: 1, source: "tag", tag: "metered" });
    expect(sims[0]?.percent).toBeCloseTo(83.3, 1);
    // A SIM's own plan wins over its router's tag.
    expect((await as(admin, `/api/sim/${SIM_B}/plan`, { plan })).body).toEqual({ ok: true });
    expect((await usageOf(first.id)).sims[0]?.plan).toEqual({ ...plan, source: "sim" });
    await as(admin, `/api/sim/${SIM_B}/plan`, { plan: null });
    expect((await usageOf(first.id)).sims[0]?.plan?.source).toBe("tag");
  });

  it("raise an event once per threshold and period: 80 % warns, 100 % is an error", async () => {
    const events = () =>
      t.db.selectFrom("events").selectAll().where("kind", "=", DATA_PLAN_EVENT_KIND).orderBy("id").execute();
    expect(await checkDataPlans({ db: t.db, bus: t.bus, now: t.clock.now, log: console })).toBe(1);
    expect(await checkDataPlans({ db: t.db, bus: t.bus, now: t.clock.now, log: console })).toBe(0);
    t.clock.advanceMinutes(1);
    await feedFirst.modems(state(SIM_B, 1, 6 * MB, 0));
    expect(await checkDataPlans({ db: t.db, bus: t.bus, now: t.clock.now, log: console })).toBe(1);
    const raised = await events();
    expect(raised.map((e) => [e.level, e.device_id, e.details.percent, e.details.iccid])).toEqual([
      ["warning", first.id, 80, SIM_B],
      ["error", first.id, 100, SIM_B],
    ]);
    const device = await t.db
      .selectFrom("devices")
      .select("events_total")
      .where("id", "=", first.id)
      .executeTakeFirstOrThrow();
    expect(device.events_total).toBe(2);
  });

  it("run as periodic durable jobs: each kind is enqueued once when due, whichever node asks", async () => {
    expect((await t.jobs.runSchedules()).sort()).toEqual(
      [
        DATA_PLAN_CHECK_JOB,
        HISTORY_MAINTENANCE_JOB,
        WATCHDOG_JOB,
        NOTIFY_TIMERS_JOB,
        NOTIFY_CLEANUP_JOB,
        FILE_SWEEP_JOB,
        SCHEDULE_CATCH_UP_JOB,
        LICENSE_REFRESH_ALL_JOB,
        STATUS_SWEEP_JOB,
        RECORDINGS_RETENTION_JOB,
        UPTIME_MAIL_CATCH_UP_JOB,
      ].sort(),
    );
    expect(await t.jobs.runSchedules()).toEqual([]);
    await t.jobs.runUntilIdle();
    // The periodic kinds' own jobs; what they emitted (the sweep's status changes) runs beside them.
    const done = await t.db
      .selectFrom("jobs")
      .select(["kind", "state"])
      .where("kind", "not like", "%:%")
      .orderBy("kind")
      .execute();
    expect(done).toEqual(
      [
        { kind: DATA_PLAN_CHECK_JOB, state: "done" },
        { kind: HISTORY_MAINTENANCE_JOB, state: "done" },
        { kind: WATCHDOG_JOB, state: "done" },
        { kind: NOTIFY_TIMERS_JOB, state: "done" },
        { kind: NOTIFY_CLEANUP_JOB, state: "done" },
        { kind: FILE_SWEEP_JOB, state: "done" },
        { kind: SCHEDULE_CATCH_UP_JOB, state: "done" },
        { kind: LICENSE_REFRESH_ALL_JOB, state: "done" },
        { kind: STATUS_SWEEP_JOB, state: "done" },
        { kind: RECORDINGS_RETENTION_JOB, state: "done" },
        { kind: UPTIME_MAIL_CATCH_UP_JOB, state: "done" },
      ].sort((a, b) => a.kind.localeCompare(b.kind)),
    );
  });
});
