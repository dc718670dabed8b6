import type { SignalHistory } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { callApi } from "../devices/devices.test-support";
import { maintainHistory } from "./history.jobs";
import { createFeeder, type Feeder, type ModemState, SIM_A, SIM_B } from "./insight.test-support";

// A router's three hours through the real ingest pipeline: an hour on SIM 1, a 31-minute outage, a
// reboot and a switch to SIM 2, another hour. Then its history as the device page reads it, and
// what the hourly job keeps of it as days pass.

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
let t: TestApp;
// Signed in at each call: the clock moves hours and days, past any session's inactivity limit.
let operator: { username: string; password: string };
let otherAdmin: { username: string; password: string };
let root: { username: string; password: string };
let device: { id: string; ident: string };
let feeder: Feeder;
let start: number;
const fed: number[] = [];

const signal = async (range: string, who = operator) =>
  callApi(t, await signIn(t.app, who), "POST", `/api/device/${device.id}/signal`, { range }) as Promise<{
    status: number;
    body: SignalHistory & { code?: string };
  }>;

async function hourOf(state: (i: number) => ModemState): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const next = state(i);
    fed.push(next.rsrp);
    await feeder.modems(next);
    if (i < 59) t.clock.advanceMinutes(1);
  }
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  const domainId = (await buildDomain(t)).id;
  operator = await buildUser(t, { role: 4, domainId });
  otherAdmin = await buildUser(t, { role: 2, domainId: (await buildDomain(t)).id });
  root = await buildUser(t, { role: 1 });
  device = await buildDevice(t, domainId);
  feeder = createFeeder(t, device.ident);
  start = t.clock.now().getTime();
  await hourOf((i) => ({
    sim: 1,
    iccid: SIM_A,
    operator: "MegaFon",
    band: "B3",
    rsrp: -90 - (i % 5),
    rx: 1000 * (i + 1),
    tx: 100 * (i + 1),
  }));
  t.clock.advanceMinutes(31);
  await feeder.event("router_started");
  await hourOf((i) => ({
    sim: 2,
    iccid: SIM_B,
    operator: "Beeline",
    band: "B20",
    rsrp: -105 + (i % 3),
    rx: 500 + 2000 * i,
    tx: 50 + 200 * i,
  }));
  t.clock.advanceMinutes(1);
});
afterAll(async () => {
  await feeder?.close();
  await t?.close();
});

describe("POST /api/device/{dev_id}/signal", () => {
  it("answers 401 without a session, 403 to a superuser, 404 for another domain's router, 400 for a bad range", async () => {
    expect((await callApi(t, null, "POST", `/api/device/${device.id}/signal`, {})).status).toBe(401);
    expect((await signal("24h", root)).status).toBe(403);
    expect((await signal("24h", otherAdmin)).body.code).toBe("DEVICE_NOT_FOUND");
    const bad = await signal("2y");
    expect([bad.status, bad.body.code]).toEqual([400, "BAD_REQUEST"]);
  });

  it("buckets the day by 5 minutes, min, max and mean per modem, matching what was reported", async () => {
    const { status, body } = await signal("24h");
    expect(status).toBe(200);
    expect(body.bucket_ms).toBe(5 * MIN);
    expect(body.modems).toHaveLength(1);
    const series = body.modems[0];
    expect(series?.modem).toBe("1-1");
    expect(series?.t.length).toBeGreaterThanOrEqual(24);
    expect(series?.t.length).toBeLessThanOrEqual(26);
    expect(Math.min(...((series?.rsrp.min ?? []) as number[]))).toBe(Math.min(...fed));
    expect(Math.max(...((series?.rsrp.max ?? []) as number[]))).toBe(Math.max(...fed));
    expect(series?.t).toEqual([...(series?.t ?? [])].sort((a, b) => a - b));
    expect(series?.csq.mean.every((value) => value === 20)).toBe(true);
  });

  it("draws the outage, the reboot, the SIM switch and the timeline on the same axis", async () => {
    const { body } = await signal("24h");
    expect(body.outages).toEqual([{ from: start + 59 * MIN, to: start + 90 * MIN, is_ongoing: false }]);
    expect(body.reboots).toEqual([start + 90 * MIN]);
    expect(body.changes).toEqual([
      {
        time: start + 90 * MIN,
        modem: "1-1",
        changes: {
          sim: { from: 1, to: 2 },
          iccid: { from: SIM_A, to: SIM_B },
          operator: { from: "MegaFon", to: "Beeline" },
          band: { from: "B3", to: "B20" },
        },
      },
    ]);
    expect(body.timeline.map((s) => [s.status, (s.from - start) / MIN, (s.to - start) / MIN])).toEqual([
      ["online", 0, 59],
      ["offline", 59, 74],
      ["warning", 74, 90],
      ["online", 90, 150],
    ]);
  });

  it("shows an ongoing outage while the router is silent, and the status it has reached", async () => {
    t.clock.advanceMinutes(20);
    const { body } = await signal("1h");
    expect(body.bucket_ms).toBe(10_000);
    expect(body.outages.at(-1)).toEqual({
      from: start + 149 * MIN,
      to: t.clock.now().getTime(),
      is_ongoing: true,
    });
    expect(body.timeline.at(-1)?.status).toBe("warning");
  });
});

describe("the hourly history job", () => {
  it("rolls samples up by hour, so 30 days read from rollups give the same extremes", async () => {
    const before = (await signal("30d")).body;
    await maintainHistory({ db: t.db, config: t.config, now: t.clock.now });
    // Every sample is in a rolled-up hour or, for the hour not yet over, still a sample.
    const mark = (await t.db.selectFrom("history_marks").select("at").executeTakeFirstOrThrow()).at;
    const rollups = await t.db
      .selectFrom("signal_rollups")
      .selectAll()
      .where("device_id", "=", device.id)
      .execute();
    const unrolled = await t.db
      .selectFrom("signal_samples")
      .select("time")
      .where("device_id", "=", device.id)
      .where("time", ">=", mark)
      .execute();
    expect(rollups.every((row) => row.hour < mark)).toBe(true);
    expect(rollups.reduce((sum, row) => sum + row.rsrp_n, 0) + unrolled.length).toBe(fed.length);
    const after = (await signal("30d")).body;
    expect(after.bucket_ms).toBe(2 * 60 * MIN);
    const extremes = (h: SignalHistory) => [
      Math.min(...((h.modems[0]?.rsrp.min ?? []) as number[])),
      Math.max(...((h.modems[0]?.rsrp.max ?? []) as number[])),
    ];
    expect(extremes(after)).toEqual(extremes(before));
    expect(extremes(after)).toEqual([Math.min(...fed), Math.max(...fed)]);
  });

  it("rolls an hour up again when a router's queue brings samples for it later", async () => {
    const late = start + 30 * MIN;
    const hour = new Date(Math.floor(late / (60 * MIN)) * 60 * MIN);
    const rollupOf = () =>
      t.db
        .selectFrom("signal_rollups")
        .select(["rsrp_n", "rsrp_max"])
        .where("device_id", "=", device.id)
        .where("hour", "=", hour)
        .executeTakeFirstOrThrow();
    const before = await rollupOf();
    // A report the router made then and sends only now: its seq is new, its time is not.
    await feeder.modems(
      { sim: 2, iccid: SIM_B, operator: "Beeline", band: "B20", rsrp: -70, rx: 1e6, tx: 1e5 },
      late,
    );
    expect(await t.db.selectFrom("signal_rollup_dirty").selectAll().execute()).toEqual([
      { device_id: device.id, hour },
    ]);
    await maintainHistory({ db: t.db, config: t.config, now: t.clock.now });
    expect(await rollupOf()).toEqual({ rsrp_n: before.rsrp_n + 1, rsrp_max: -70 });
    expect(await t.db.selectFrom("signal_rollup_dirty").selectAll().execute()).toEqual([]);
    fed.push(-70);
  });

  it("keeps raw samples HISTORY_RAW_DAYS, everything else HISTORY_RETENTION_DAYS, then drops it", async () => {
    t.clock.advance(8 * DAY);
    await maintainHistory({ db: t.db, config: t.config, now: t.clock.now });
    const count = async (
      table:
        | "signal_samples"
        | "signal_rollups"
        | "device_outages"
        | "modem_changes"
        | "sim_usage"
        | "collect_history",
    ) =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("device_id", "=", device.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count("signal_samples")).toBe(0);
    expect(await count("collect_history")).toBe(0);
    expect(await count("signal_rollups")).toBeGreaterThan(0);
    // The 31-minute outage, and the 20 silent minutes before the queued report arrived.
    expect(await count("device_outages")).toBe(2);
    expect((await signal("30d")).body.modems[0]?.t.length).toBeGreaterThan(0);
    t.clock.advance(90 * DAY);
    await maintainHistory({ db: t.db, config: t.config, now: t.clock.now });
    for (const table of ["signal_rollups", "device_outages", "modem_changes", "sim_usage"] as const) {
      expect(await count(table)).toBe(0);
    }
  });
});
