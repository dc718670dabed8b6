import type { UptimeReport } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJsonb } from "../../platform/db/schema";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { callApi } from "../devices/devices.test-support";
import { ROLLUP_MARK } from "../insight/history.repo";
import { SIM_A, SIM_B } from "../insight/insight.test-support";

// October 2026 of a domain in Moscow (UTC+3 all year): 2026-09-30T21:00Z to 2026-10-31T21:00Z, 744 h.
// A hand-built history whose figures are worked out below, each beside the rows it comes from.

const HOUR = 3_600_000;
const MIN = 60_000;
const at = (iso: string) => new Date(iso);
let t: TestApp;
let token: string;
let northToken: string;
let otherToken: string;
let rootToken: string;
let routerA: { id: string; ident: string };
let routerB: { id: string; ident: string };
let otherRouter: { id: string };

const report = async (body: object, who = () => token) =>
  callApi(t, who(), "POST", "/api/uptime", body) as Promise<{
    status: number;
    body: UptimeReport & { code?: string; message?: string };
  }>;

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  const domainId = (await buildDomain(t, { time_zone: "Europe/Moscow" })).id;
  const otherDomainId = (await buildDomain(t)).id;
  token = await signIn(t.app, await buildUser(t, { role: 4, domainId }));
  northToken = await signIn(t.app, await buildUser(t, { role: 4, domainId, tagScope: ["north"] }));
  otherToken = await signIn(t.app, await buildUser(t, { role: 2, domainId: otherDomainId }));
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  otherRouter = await buildDevice(t, otherDomainId, { create_time: at("2026-09-01T00:00:00Z") });

  // A: in service all month, in contact now. B: created 17 October (Moscow), silent since the 21st.
  // C: tagged like B but created after the month. D: created on the 1st, never reported.
  routerA = await buildDevice(t, domainId, {
    ident: "AAA1",
    create_time: at("2026-09-01T00:00:00Z"),
    last_contact: t.clock.now(),
  });
  routerB = await buildDevice(t, domainId, {
    ident: "BBB1",
    tags: ["north"],
    create_time: at("2026-10-16T21:00:00Z"),
    last_contact: at("2026-10-20T21:00:00Z"),
  });
  await buildDevice(t, domainId, { ident: "CCC1", tags: ["north"], create_time: at("2026-11-10T00:00:00Z") });
  await buildDevice(t, domainId, { ident: "DDD1", create_time: at("2026-09-30T21:00:00Z") });

  await t.db
    .insertInto("device_outages")
    .values([
      // Crosses the month's start: only 21:00–23:00Z counts, 2 h.
      { device_id: routerA.id, started: at("2026-09-30T20:00:00Z"), ended: at("2026-09-30T23:00:00Z") },
      { device_id: routerA.id, started: at("2026-10-10T10:00:00Z"), ended: at("2026-10-10T10:30:00Z") },
      // Crosses the month's end: only 20:00–21:00Z counts, 1 h.
      { device_id: routerA.id, started: at("2026-10-31T20:00:00Z"), ended: at("2026-10-31T22:30:00Z") },
      { device_id: routerA.id, started: at("2026-11-05T00:00:00Z"), ended: at("2026-11-05T05:00:00Z") },
      { device_id: routerB.id, started: at("2026-10-18T00:00:00Z"), ended: at("2026-10-18T01:00:00Z") },
      { device_id: otherRouter.id, started: at("2026-10-02T00:00:00Z"), ended: at("2026-10-09T00:00:00Z") },
    ])
    .execute();
  await t.db
    .insertInto("modem_changes")
    .values([
      {
        device_id: routerA.id,
        time: at("2026-10-05T00:00:00Z"),
        modem: "1-1",
        changes: toJsonb({ sim: { from: 1, to: 2 } }),
      },
      {
        device_id: routerA.id,
        time: at("2026-10-06T12:00:00Z"),
        modem: "1-1",
        changes: toJsonb({ sim: { from: 2, to: 1 } }),
      },
      {
        device_id: routerA.id,
        time: at("2026-10-07T00:00:00Z"),
        modem: "1-1",
        changes: toJsonb({ operator: { from: "A", to: "B" } }),
      },
    ])
    .execute();
  // B has no slot change: its modem is on SIM 2 now, so it was all along.
  await t.db
    .insertInto("device_collects")
    .values({
      device_id: routerB.id,
      domain_id: domainId,
      type: "modems",
      data: toJsonb({ modems: [{ id: "1-1", sim: 2 }] }),
      seq: 1,
      create_time: at("2026-10-20T21:00:00Z"),
    })
    .execute();
  const rollup = (hour: string, csqSum: number, csqN: number) => ({
    device_id: routerA.id,
    modem: "1-1",
    hour: at(hour),
    csq_min: 0,
    csq_max: 31,
    csq_sum: csqSum,
    csq_n: csqN,
  });
  await t.db
    .insertInto("signal_rollups")
    .values([
      rollup("2026-10-02T00:00:00Z", 40, 2),
      rollup("2026-10-03T00:00:00Z", 30, 2),
      rollup("2026-09-15T00:00:00Z", 0, 10),
    ])
    .execute();
  await t.db.insertInto("history_marks").values({ name: ROLLUP_MARK, at: t.clock.now() }).execute();
  const usage = (iccid: string, day: string, rx: number, tx: number) => ({
    domain_id: domainId,
    iccid,
    day,
    device_id: routerA.id,
    modem: "1-1",
    slot: 1,
    rx,
    tx,
    seen: at(`${day}T12:00:00Z`),
  });
  await t.db
    .insertInto("sim_usage")
    .values([
      usage(SIM_A, "2026-10-01", 1000, 100),
      usage(SIM_A, "2026-10-31", 500, 50),
      usage(SIM_A, "2026-09-30", 9999, 999),
      usage(SIM_B, "2026-10-15", 2000, 200),
    ])
    .execute();
  await t.db
    .insertInto("firmware_rollouts")
    .values({
      id: "rollout-1",
      rule_id: "rule-1",
      version: "2.0",
      file_key: "f",
      options: toJsonb({}),
      status: "done",
      stage_count: 1,
      total: 2,
      author_id: "someone",
      create_time: at("2026-10-19T00:00:00Z"),
      update_time: at("2026-10-20T00:00:00Z"),
    })
    .execute();
  const target = (deviceId: string, state: string, updated: string) => ({
    rollout_id: "rollout-1",
    device_id: deviceId,
    domain_id: domainId,
    stage: 0,
    state,
    update_time: at(updated),
  });
  await t.db
    .insertInto("firmware_rollout_targets")
    .values([
      target(routerA.id, "succeeded", "2026-10-20T00:00:00Z"),
      target(routerB.id, "failed", "2026-10-20T00:00:00Z"),
    ])
    .execute();
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/uptime", () => {
  it("answers 401 without a session, 403 to a superuser, 404 for another domain's router", async () => {
    expect((await callApi(t, null, "POST", "/api/uptime", { month: "2026-10" })).status).toBe(401);
    expect((await report({ month: "2026-10" }, () => rootToken)).status).toBe(403);
    const foreign = await report(
      { month: "2026-10", scope: "device", device_id: routerA.id },
      () => otherToken,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("DEVICE_NOT_FOUND");
  });

  it("refuses a malformed month, a month not begun, an unknown tag and a scope without its subject", async () => {
    for (const month of ["2026-13", "2026-1", "October", ""]) {
      const answer = await report({ month });
      expect(answer.status, month).toBe(400);
      expect(answer.body.code).toBe("BAD_REQUEST");
    }
    const future = await report({ month: "2999-01" });
    expect(future.status).toBe(400);
    expect(future.body).toEqual({
      code: "BAD_REQUEST",
      message: "month: 2999-01 has not begun in the domain's time zone (Europe/Moscow)",
    });
    const tag = await report({ month: "2026-10", scope: "tag", tag: "south" });
    expect(tag.status).toBe(400);
    expect(tag.body).toEqual({
      code: "BAD_REQUEST",
      message: 'tag: no router of the domain has the tag "south"',
    });
    const noTag = await report({ month: "2026-10", scope: "tag" });
    expect(noTag.status).toBe(400);
    expect(noTag.body.code).toBe("NOT_ENOUGH_PARAMS");
  });

  it("reports each router's month from its history, clipped to the month and to its creation", async () => {
    const { status, body } = await report({ month: "2026-10" });
    expect(status).toBe(200);
    expect(body.time_zone).toBe("Europe/Moscow");
    expect(body.from).toBe(at("2026-09-30T21:00:00Z").getTime());
    expect(body.to).toBe(at("2026-10-31T21:00:00Z").getTime());
    expect(body.routers.map((r) => r.ident)).toEqual(["AAA1", "BBB1", "DDD1"]);
    const [a, b, d] = body.routers.map((r) => r.figures);

    // A: 744 h observed; down 2 h + 30 min + 1 h = 210 min; 740.5 / 744 = 99.53 %.
    expect(a?.observed_ms).toBe(744 * HOUR);
    expect(a?.outages).toEqual({ count: 3, longest_ms: 2 * HOUR, total_ms: 210 * MIN });
    expect(a?.connected_ms).toBe(744 * HOUR - 210 * MIN);
    expect(a?.connected_percent).toBe(99.5);
    // On SIM 2 from the 5th 00:00Z to the 6th 12:00Z: 36 h; the operator change is no slot change.
    expect(a?.backup_sim_ms).toBe(36 * HOUR);
    // Rollups of the month: (40 + 30) / 4 = 17.5, Normal (15–19); September's hour is not the month's.
    expect(a?.signal).toEqual({ csq: 17.5, quality: "normal" });
    expect(a?.sims).toEqual([
      { iccid: SIM_A, rx: 1500, tx: 150 },
      { iccid: SIM_B, rx: 2000, tx: 200 },
    ]);
    expect(a?.firmware_changes).toBe(1);

    // B: from its creation (16th 21:00Z) to the month's end, 360 h; down 1 h stored and the ongoing
    // silence from the 20th 21:00Z to the month's end, 264 h: 95 / 360 = 26.39 %.
    expect(b?.observed_ms).toBe(360 * HOUR);
    expect(b?.outages).toEqual({ count: 2, longest_ms: 264 * HOUR, total_ms: 265 * HOUR });
    expect(b?.connected_percent).toBe(26.4);
    expect(b?.backup_sim_ms).toBe(360 * HOUR);
    expect(b?.signal).toEqual({ csq: null, quality: "unknown" });
    expect(b?.firmware_changes).toBe(0);

    // D never reported: pending, not down; nothing observed.
    expect(d?.observed_ms).toBe(0);
    expect(d?.connected_percent).toBeNull();

    // Together: 835.5 h of 1,104 h = 75.68 %.
    expect(body.totals.routers).toBe(3);
    expect(body.totals.observed_ms).toBe(1104 * HOUR);
    expect(body.totals.connected_percent).toBe(75.7);
    expect(body.totals.outages).toEqual({
      count: 5,
      longest_ms: 264 * HOUR,
      total_ms: 210 * MIN + 265 * HOUR,
    });
    expect(body.totals.backup_sim_ms).toBe(396 * HOUR);
    expect(body.totals.signal).toEqual({ csq: 17.5, quality: "normal" });

    // Days of Moscow: the 1st has A only, down 2 h of 24 (91.7 %); the 31st has A down 1 h and
    // B silent all day: 23 of 48 h (47.9 %).
    expect(body.days).toHaveLength(31);
    expect(body.days[0]).toEqual({ day: "2026-10-01", from: body.from, connected_percent: 91.7 });
    expect(body.days[30]?.day).toBe("2026-10-31");
    expect(body.days[30]?.connected_percent).toBe(47.9);
  });

  it("reports a tag's routers and one router alone", async () => {
    const north = await report({ month: "2026-10", scope: "tag", tag: "north" });
    expect(north.status).toBe(200);
    expect(north.body.routers.map((r) => r.ident)).toEqual(["BBB1"]);
    expect(north.body.totals.connected_percent).toBe(26.4);
    const one = await report({ month: "2026-10", scope: "device", device_id: routerA.id });
    expect(one.body.routers.map((r) => r.ident)).toEqual(["AAA1"]);
    expect(one.body.totals.connected_percent).toBe(99.5);
  });

  it("covers only the routers of a person limited to tags (ADR 041), on screen and as CSV", async () => {
    const north = () => northToken;
    const domain = await report({ month: "2026-10" }, north);
    expect(domain.status).toBe(200);
    expect(domain.body.routers.map((r) => r.ident)).toEqual(["BBB1"]);
    expect(domain.body.totals.routers).toBe(1);
    expect((await report({ month: "2026-10", scope: "tag", tag: "north" }, north)).body.totals.routers).toBe(
      1,
    );
    const outside = await report({ month: "2026-10", scope: "device", device_id: routerA.id }, north);
    expect([outside.status, outside.body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    const csv = await t.app.inject({
      method: "POST",
      url: "/api/uptime/export",
      headers: { token: northToken },
      payload: { month: "2026-10" },
    });
    expect(csv.statusCode).toBe(200);
    expect(
      csv.body
        .trim()
        .split("\r\n")
        .slice(1)
        .map((line) => line.split(",")[0]),
    ).toEqual(["BBB1", "total (1)"]);
  });

  it("exports the same figures as CSV, a line per router and the total", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/uptime/export",
      headers: { token },
      payload: { month: "2026-10" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toContain("uptime.csv");
    const lines = response.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      "ident,description,connected_percent,connected_hours,observed_hours,outages,longest_outage_minutes,outage_minutes,backup_sim_minutes,csq,signal_quality,sims,rx_bytes,tx_bytes,firmware_changes",
    );
    expect(lines[1]).toBe(`AAA1,,99.5,740.5,744,3,120,210,2160,17.5,normal,${SIM_A} ${SIM_B},3500,350,1`);
    expect(lines[4]).toBe(
      `total (3),,75.7,835.5,1104,5,15840,16110,23760,17.5,normal,${SIM_A} ${SIM_B},3500,350,1`,
    );
    const future = await t.app.inject({
      method: "POST",
      url: "/api/uptime/export",
      headers: { token },
      payload: { month: "2999-01" },
    });
    expect(future.statusCode).toBe(400);
    const bodiless = await t.app.inject({ method: "POST", url: "/api/uptime/export", headers: { token } });
    expect(bodiless.statusCode).toBe(400);
    expect(bodiless.json().code).toBe("BAD_REQUEST");
  });
});
