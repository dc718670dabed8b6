import {
  PERMISSIONS,
  type ScheduleRule,
  type ScheduleRuleInput,
  ScheduleRulesAnswerSchema,
  type SubjectKind,
} from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn, signInDemo, signInEveryKind } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { DOMAIN_TIME_ZONE_CHANGED_JOB } from "../settings/settings.service";
import { SCHEDULE_FIRE_JOB } from "./schedules.jobs";

// The crontab calls (spec section 7) through app.inject on a real database: who may, what is
// refused with which code, and that each save queues the rule's next occurrence as a job.

let t: TestApp;
let domainId: string;
let tokens: Record<SubjectKind, string>;

const call = async (
  method: "POST" | "PATCH" | "PUT",
  url: string,
  token: string | undefined,
  payload = {},
) => {
  const response = await t.app.inject({ method, url, headers: token ? { token } : {}, payload });
  return { status: response.statusCode, body: response.json() };
};

const weeklyRule = (overrides: Partial<ScheduleRuleInput> = {}): ScheduleRuleInput => ({
  name: "Nightly backup",
  active: true,
  regular: { basic: "weekly", options: { weeks: ["last"], days: [1] }, time: "03:00" },
  active_for: "group",
  search: { filterTags: ["north"] },
  copies: 5,
  ...overrides,
});

const fireJobs = (ruleId: string) =>
  t.db
    .selectFrom("jobs")
    .select(["run_at", "state", "payload"])
    .where("kind", "=", SCHEDULE_FIRE_JOB)
    .where(({ ref, eb }) => eb(ref("payload", "->>").key("ruleId" as never), "=", ruleId))
    .execute();

beforeAll(async () => {
  // Firings are not run here: the test reads the queued jobs.
  t = await createTestApp({ runJobs: false });
  // Rules read their times in the domain's zone (ADR 020).
  domainId = (await buildDomain(t, { time_zone: "Europe/Berlin" })).id;
  tokens = await signInEveryKind(t, domainId);
});
afterAll(async () => {
  await t.close();
});

describe("crontab routes", () => {
  it("answers 401 without a token and loads or saves only as the permission table says (admins)", async () => {
    expect((await call("POST", "/api/crontab/all", undefined)).status).toBe(401);
    expect((await call("POST", "/api/crontab/backup", undefined, weeklyRule())).status).toBe(401);
    for (const kind of Object.keys(tokens) as SubjectKind[]) {
      const list = await call("POST", "/api/crontab/all", tokens[kind]);
      expect(list.status, `${kind} loads`).toBe(PERMISSIONS["crontab.view"].who.includes(kind) ? 200 : 403);
      const created = await call("POST", "/api/crontab/backup", tokens[kind], weeklyRule());
      expect(created.status, `${kind} adds`).toBe(
        PERMISSIONS["crontab.manage"].who.includes(kind) ? 200 : 403,
      );
      if (created.status === 403) expect(created.body.code).toBe("PERMISSION_DENIED");
    }
    expect(PERMISSIONS["crontab.view"].who).toEqual(["admin"]);
  });

  it("adds a rule with its next occurrence in the domain's zone, queued as one job at that time", async () => {
    const created = await call("POST", "/api/crontab/backup", tokens.admin, weeklyRule());
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const rule: ScheduleRule = created.body.item;
    expect(rule).toMatchObject({ type: "backup", name: "Nightly backup", active: true, copies: 5 });
    expect(rule.time_zone).toBe("Europe/Berlin");
    expect(rule.search.filterTags).toEqual(["north"]);
    // The last Monday of a month at 03:00 in Berlin: 01:00 or 02:00 UTC.
    const next = new Date(rule.next_run as number);
    expect(next.getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(next.getUTCDay()).toBe(1);
    expect([1, 2]).toContain(next.getUTCHours());
    const jobs = await fireJobs(rule._id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.run_at.getTime()).toBe(rule.next_run);

    const opened = await call("POST", `/api/crontab/backup/${rule._id}`, tokens.admin);
    expect(opened.body.item).toEqual(rule);
    const all = ScheduleRulesAnswerSchema.parse((await call("POST", "/api/crontab/all", tokens.admin)).body);
    expect(all.items.map((item) => item._id)).toContain(rule._id);
  });

  it("switches a rule off (no next occurrence) and on again; PUT replaces it and queues the new time", async () => {
    const rule: ScheduleRule = (await call("POST", "/api/crontab/journal", tokens.admin, weeklyRule())).body
      .item;
    const off = await call("PATCH", `/api/crontab/journal/${rule._id}`, tokens.admin, { active: false });
    expect(off.body.item).toMatchObject({ active: false, next_run: null });
    const on = await call("PATCH", `/api/crontab/journal/${rule._id}`, tokens.admin, { active: true });
    expect(on.body.item.next_run).toBe(rule.next_run);
    const daily = weeklyRule({
      regular: { basic: "daily", options: { weeks: [], days: [] }, time: "23:15" },
      active_for: "all",
      search: { filterTags: [] },
    });
    const replaced = await call("PUT", `/api/crontab/journal/${rule._id}`, tokens.admin, daily);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.item.next_run - t.clock.now().getTime()).toBeLessThanOrEqual(24 * 3600_000);
    const runAts = (await fireJobs(rule._id)).map((job) => job.run_at.getTime());
    expect(runAts).toContain(replaced.body.item.next_run);
  });

  it("refuses bad input with 400 and the §5 message keys, an unknown class with UNSUPPORTED_TASK_TYPE", async () => {
    const cases: Array<[Partial<ScheduleRuleInput>, string]> = [
      [{ name: "  " }, "required"],
      [{ copies: 0 }, "copiesRange"],
      [{ copies: 101 }, "copiesRange"],
      [{ regular: { basic: "daily", options: { weeks: [], days: [] }, time: "24:00" } }, "timeInvalid"],
      [{ regular: { basic: "weekly", options: { weeks: [], days: [] }, time: "03:00" } }, "daysRequired"],
      [{ search: { filterTags: [] } }, "tagsRequired"],
      [{ search: { filterTags: ["x"] } }, "tagTooShort"],
    ];
    for (const [override, key] of cases) {
      const refused = await call("POST", "/api/crontab/backup", tokens.admin, weeklyRule(override));
      expect(refused.status, key).toBe(400);
      expect(refused.body.message, key).toContain(key);
    }
    const unknown = await call("POST", "/api/crontab/firmware", tokens.admin, weeklyRule());
    expect(unknown).toMatchObject({ status: 400, body: { code: "UNSUPPORTED_TASK_TYPE" } });
  });

  it("answers TASK_NOT_FOUND for another domain's rule, another class's and an unknown id", async () => {
    const rule: ScheduleRule = (await call("POST", "/api/crontab/backup", tokens.admin, weeklyRule())).body
      .item;
    const otherDomain = (await buildDomain(t)).id;
    const stranger = await signIn(t.app, await buildUser(t, { role: 2, domainId: otherDomain }));
    for (const [method, url, token, body] of [
      ["POST", `/api/crontab/backup/${rule._id}`, stranger, {}],
      ["PATCH", `/api/crontab/backup/${rule._id}`, stranger, { active: false }],
      ["PUT", `/api/crontab/backup/${rule._id}`, stranger, weeklyRule()],
      ["POST", `/api/crontab/journal/${rule._id}`, tokens.admin, {}],
      ["POST", "/api/crontab/backup/no-such-rule", tokens.admin, {}],
    ] as const) {
      const answer = await call(method, url, token, body);
      expect(answer, `${method} ${url}`).toMatchObject({ status: 404, body: { code: "TASK_NOT_FOUND" } });
    }
    expect((await call("POST", "/api/crontab/all", stranger)).body.items).toEqual([]);
    expect((await call("POST", `/api/crontab/backup/${rule._id}`, tokens.admin)).body.item.active).toBe(true);
  });

  it("refuses the demo user's save and audits an admin's", async () => {
    const demo = await signInDemo(t.app);
    const refused = await call("POST", "/api/crontab/backup", demo, weeklyRule());
    expect(refused.status).toBe(403);
    expect(refused.body.code).toMatch(/DEMO_PERMISSIONS_DENIED|PERMISSION_DENIED/);
    await call("POST", "/api/crontab/backup", tokens.admin, weeklyRule({ name: "Audited rule" }));
    await t.app.auditLog.settle();
    const entries = await t.db
      .selectFrom("web_actions")
      .select(["action", "status"])
      .where("domain_id", "=", domainId)
      .where("action", "like", "%crontab%")
      .execute();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.some((entry) => entry.status === "SUCCESS")).toBe(true);
  });

  it("moves every active rule's next occurrence when the domain's time zone changes, through a queued job", async () => {
    const zoned = (await buildDomain(t)).id; // 'UTC' by default
    const admin = await signIn(t.app, await buildUser(t, { role: 2, domainId: zoned }));
    const daily = weeklyRule({
      regular: { basic: "daily", options: { weeks: [], days: [] }, time: "09:00" },
      active_for: "all",
      search: { filterTags: [] },
    });
    const rule: ScheduleRule = (await call("POST", "/api/crontab/backup", admin, daily)).body.item;
    const off: ScheduleRule = (await call("POST", "/api/crontab/journal", admin, { ...daily, active: false }))
      .body.item;
    expect(rule.time_zone).toBe("UTC");
    expect(new Date(rule.next_run as number).getUTCHours()).toBe(9);

    const settings = (await call("POST", "/api/settings/all", admin)).body.settings;
    expect(settings.time_zone).toBe("UTC");
    const saved = await call("PATCH", "/api/settings/domains-all", admin, {
      ...settings,
      time_zone: "Asia/Tokyo",
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // Queued in the save's transaction; until it runs the rule still waits for 09:00 UTC.
    const queued = await t.db
      .selectFrom("jobs")
      .select("state")
      .where("kind", "=", DOMAIN_TIME_ZONE_CHANGED_JOB)
      .where("domain_id", "=", zoned)
      .execute();
    expect(queued).toHaveLength(1);
    expect((await call("POST", `/api/crontab/backup/${rule._id}`, admin)).body.item.next_run).toBe(
      rule.next_run,
    );

    await t.jobs.runUntilIdle();
    const moved: ScheduleRule = (await call("POST", `/api/crontab/backup/${rule._id}`, admin)).body.item;
    expect(moved.time_zone).toBe("Asia/Tokyo");
    // 09:00 in Tokyo is 00:00 UTC, within a day from now.
    const next = new Date(moved.next_run as number);
    expect(next.getUTCHours()).toBe(0);
    expect(next.getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(next.getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(24 * 3600_000);
    expect((await fireJobs(rule._id)).map((job) => job.run_at.getTime())).toContain(moved.next_run);
    // A switched-off rule stays without an occurrence.
    expect((await call("POST", `/api/crontab/journal/${off._id}`, admin)).body.item.next_run).toBeNull();
    // Saving the same zone again queues nothing.
    await call("PATCH", "/api/settings/domains-all", admin, { ...settings, time_zone: "Asia/Tokyo" });
    const again = await t.db
      .selectFrom("jobs")
      .select("id")
      .where("kind", "=", DOMAIN_TIME_ZONE_CHANGED_JOB)
      .where("domain_id", "=", zoned)
      .execute();
    expect(again).toHaveLength(1);
  });
});
