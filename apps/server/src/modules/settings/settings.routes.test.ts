import {
  type DomainSettings,
  DomainSettingsAnswerSchema,
  PERMISSIONS,
  type SubjectKind,
} from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainTopic } from "../../platform/bus/bus";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, signInDemo, signInEveryKind } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let domainId: string;
let tokens: Record<SubjectKind, string>;

const call = async (
  method: "POST" | "PATCH",
  url: string,
  token: string | undefined,
  payload: object = {},
) => {
  const response = await t.app.inject({ method, url, headers: token ? { token } : {}, payload });
  return { status: response.statusCode, body: response.json() };
};
const save = (token: string | undefined, settings: unknown) =>
  call("PATCH", "/api/settings/domains-all", token, settings as object);
/** Settings with the given minutes (pending defaults to online's: an empty band) and copies. */
const settingsOf = (
  online: number,
  warning: number,
  backup = 10,
  journal = 10,
  pending = online,
  timeZone = "UTC",
): DomainSettings => ({
  status: [
    { name: "online", minutes: online },
    { name: "pending", minutes: pending },
    { name: "warning", minutes: warning },
  ],
  backup: { copies: backup },
  journal: { copies: journal },
  time_zone: timeZone,
  rollouts: { auto_accept: false, window: null },
  remote_access: {
    idle_minutes: 15,
    max_minutes: 120,
    bandwidth_kib: 1024,
    quota_mib: 256,
    recording_days: 90,
  },
});

beforeAll(async () => {
  // The dispatcher stays off: the test runs the queued sweep itself, at a moment it chooses.
  t = await createTestApp({ runJobs: false });
  domainId = (await buildDomain(t)).id;
  tokens = await signInEveryKind(t, domainId);
});
afterAll(async () => {
  await t.close();
});

describe("domain settings", () => {
  it("answers 401 to anonymous callers, and reads and saves exactly as the permission table says", async () => {
    expect((await call("POST", "/api/settings/all", undefined)).status).toBe(401);
    expect((await save(undefined, settingsOf(15, 60))).status).toBe(401);
    for (const kind of Object.keys(tokens) as SubjectKind[]) {
      const read = await call("POST", "/api/settings/all", tokens[kind]);
      const mayRead = PERMISSIONS["settings.view"].who.includes(kind);
      expect(read.status, `${kind} reads`).toBe(mayRead ? 200 : 403);
      if (mayRead) expect(DomainSettingsAnswerSchema.parse(read.body).settings).toBeDefined();
      const saved = await save(tokens[kind], settingsOf(15, 60));
      expect(saved.status, `${kind} saves`).toBe(PERMISSIONS["settings.save"].who.includes(kind) ? 200 : 403);
      if (saved.status === 403) expect(saved.body.code).toBe("PERMISSION_DENIED");
    }
  });

  it("refuses the demo user's save with DEMO_PERMISSIONS_DENIED and leaves the demo settings as they were", async () => {
    const demo = await signInDemo(t.app);
    const before = await call("POST", "/api/settings/all", demo);
    expect(before.status).toBe(200);
    const refused = await save(demo, settingsOf(20, 30, 1, 1));
    expect(refused).toMatchObject({ status: 403, body: { code: "DEMO_PERMISSIONS_DENIED" } });
    expect((await call("POST", "/api/settings/all", demo)).body).toEqual(before.body);
  });

  it("takes minutes of 15 to 10080 (online not above pending, pending not above warning) and copies of 1 to 100, refusing every edge beyond", async () => {
    for (const good of [
      settingsOf(15, 15, 1, 100),
      settingsOf(10080, 10080, 100, 1),
      settingsOf(15, 10080),
    ]) {
      const answer = await save(tokens.admin, good);
      expect(answer.status, JSON.stringify(good)).toBe(200);
      expect(answer.body.settings).toEqual(good);
      expect((await call("POST", "/api/settings/all", tokens.admin)).body.settings).toEqual(good);
    }
    const stored = (await call("POST", "/api/settings/all", tokens.admin)).body;
    const bad: Array<[unknown, string]> = [
      [settingsOf(14, 60), "statusMinutesRange"],
      [settingsOf(15, 10081), "statusMinutesRange"],
      [settingsOf(15.5, 60), "statusMinutesRange"],
      [settingsOf(61, 60), "statusMinutesAbovePrevious"],
      [settingsOf(15, 60, 10, 10, 61), "statusMinutesAbovePrevious"],
      [settingsOf(31, 60, 10, 10, 30), "statusMinutesAbovePrevious"],
      [settingsOf(15, 60, 10, 10, 14), "statusMinutesRange"],
      [settingsOf(15, 60, 0), "copiesRange"],
      [settingsOf(15, 60, 10, 101), "copiesRange"],
      [settingsOf(15, 60, 1.5), "copiesRange"],
      [{ ...settingsOf(15, 60), status: settingsOf(15, 60).status.slice(1) }, "status"],
      [
        {
          ...settingsOf(15, 60),
          status: [
            { name: "online", minutes: 15 },
            { name: "online", minutes: 20 },
            { name: "warning", minutes: 60 },
          ],
        },
        "status",
      ],
      [
        {
          ...settingsOf(15, 60),
          status: [
            { name: "online", minutes: "15" },
            { name: "pending", minutes: 15 },
            { name: "warning", minutes: 60 },
          ],
        },
        "status",
      ],
      [{ status: settingsOf(15, 60).status, backup: { copies: 10 } }, "journal"],
    ];
    for (const [body, hint] of bad) {
      const answer = await save(tokens.admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe("BAD_REQUEST");
      expect(answer.body.message).toContain(hint);
    }
    expect((await call("POST", "/api/settings/all", tokens.admin)).body).toEqual(stored);
  });

  it("takes an IANA time zone name and refuses anything else with the §5 key", async () => {
    const berlin = await save(tokens.admin, settingsOf(15, 60, 10, 10, 15, "Europe/Berlin"));
    expect(berlin.status, JSON.stringify(berlin.body)).toBe(200);
    expect(berlin.body.settings.time_zone).toBe("Europe/Berlin");
    expect((await call("POST", "/api/settings/all", tokens.admin)).body.settings.time_zone).toBe(
      "Europe/Berlin",
    );
    for (const [zone, key] of [
      ["Mars/Olympus", "timeZoneInvalid"],
      ["", "required"],
      ["GMT+25", "timeZoneInvalid"],
    ] as const) {
      const refused = await save(tokens.admin, settingsOf(15, 60, 10, 10, 15, zone));
      expect(refused.status, zone).toBe(400);
      expect(refused.body.code).toBe("BAD_REQUEST");
      expect(refused.body.message, zone).toContain(key);
    }
    const { time_zone: _zone, ...withoutZone } = settingsOf(15, 60);
    expect((await save(tokens.admin, withoutZone)).status).toBe(400);
    expect((await call("POST", "/api/settings/all", tokens.admin)).body.settings.time_zone).toBe(
      "Europe/Berlin",
    );
    expect((await save(tokens.admin, settingsOf(15, 60))).body.settings.time_zone).toBe("UTC");
  });

  it("keeps the domain's answer to firmware rollouts: accepting by itself, in its window (ADR 031)", async () => {
    // A domain that never saved it reads as asked each time, any time.
    expect((await call("POST", "/api/settings/all", tokens.admin)).body.settings.rollouts).toEqual({
      auto_accept: false,
      window: null,
    });
    const rollouts = { auto_accept: true, window: { start: 1380, end: 150 } };
    const saved = await save(tokens.admin, { ...settingsOf(15, 60), rollouts });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.settings.rollouts).toEqual(rollouts);
    expect((await call("POST", "/api/settings/all", tokens.admin)).body.settings.rollouts).toEqual(rollouts);
    const never = await save(tokens.admin, {
      ...settingsOf(15, 60),
      rollouts: { auto_accept: true, window: { start: 60, end: 60 } },
    });
    expect(never.status).toBe(400);
    expect((await save(tokens.admin, settingsOf(15, 60))).body.settings.rollouts.auto_accept).toBe(false);
  });

  it("audits every save, refused ones too, without the values' ids", async () => {
    await save(tokens.admin, settingsOf(15, 60));
    await save(tokens.admin, settingsOf(99, 60));
    await t.app.auditLog.settle();
    const entries = await t.db
      .selectFrom("web_actions")
      .select(["action", "status"])
      .where("domain_id", "=", domainId)
      .orderBy("create_time", "desc")
      .orderBy("id", "desc")
      .limit(2)
      .execute();
    expect(entries).toEqual([
      { action: "PATCH_settings", status: "FAILURE" },
      { action: "PATCH_settings", status: "SUCCESS" },
    ]);
  });

  it("moves stored statuses at once when a threshold changes: the save queues a sweep that pushes them", async () => {
    await save(tokens.admin, settingsOf(15, 60));
    const device = await buildDevice(t, domainId);
    await t.db
      .updateTable("devices")
      .set({ last_contact: new Date(t.clock.now().getTime() - 20 * 60_000), last_status: "warning" })
      .where("id", "=", device.id)
      .execute();
    const status = async () =>
      (
        await t.db
          .selectFrom("devices")
          .select("last_status")
          .where("id", "=", device.id)
          .executeTakeFirstOrThrow()
      ).last_status;
    const pushed: unknown[] = [];
    const off = t.bus.subscribe(domainTopic(domainId), (message) => pushed.push(message));
    try {
      // The dashboard and the list compute status per request: the new thresholds show at once.
      expect((await save(tokens.admin, settingsOf(30, 60))).status).toBe(200);
      const listed = await t.app.inject({
        method: "POST",
        url: "/api/dashboard/",
        headers: { token: tokens.admin },
        payload: {},
      });
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toMatchObject({ online: 1 });
      // The stored status (what the sweep and notification rules go by) moves with the queued sweep,
      // without waiting for the periodic one.
      const queued = await t.db
        .selectFrom("jobs")
        .select(["kind", "state"])
        .where("domain_id", "=", domainId)
        .where("kind", "=", "devices.statusSweep")
        .execute();
      expect(queued).toEqual([{ kind: "devices.statusSweep", state: "queued" }]);
      expect(await status()).toBe("warning");
      await t.jobs.runUntilIdle();
      expect(await status()).toBe("online");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(pushed).toContainEqual(
        expect.objectContaining({
          type: "devices",
          action: "update",
          content: [expect.objectContaining({ _id: device.id, status: "online" })],
        }),
      );
      // Saving copies only queues no sweep.
      expect((await save(tokens.admin, settingsOf(30, 60, 5, 5))).status).toBe(200);
      const after = await t.db
        .selectFrom("jobs")
        .select("id")
        .where("domain_id", "=", domainId)
        .where("kind", "=", "devices.statusSweep")
        .where("state", "=", "queued")
        .execute();
      expect(after).toHaveLength(0);
      // A pending band: 20 minutes of silence is past online (15) and within pending (30).
      expect((await save(tokens.admin, settingsOf(15, 60, 5, 5, 30))).status).toBe(200);
      await t.jobs.runUntilIdle();
      expect(await status()).toBe("pending");
      const devices = await t.app.inject({
        method: "POST",
        url: "/api/devices/",
        headers: { token: tokens.admin },
        payload: { status: ["pending"] },
      });
      expect(devices.statusCode).toBe(200);
      expect(devices.body).toContain(`"_id":"${device.id}"`);
      expect(devices.body).toContain('"status":"pending"');
    } finally {
      off();
    }
  });
});
