import type { ScheduleRuleInput } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, buildApiToken } from "../../test/api-token-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 30, ADR 041: schedules are an admin's; only an admin's API token can be narrowed to tags.
// Such a token writes only rules whose routers all lie within its tags (a group of those tags),
// is refused with PERMISSION_DENIED otherwise, and finds no other rule to list, read or change.

let t: TestApp;
let admin: string;
let scoped: string;

const call = async (method: "POST" | "PUT" | "PATCH", url: string, headers: object, payload = {}) => {
  const response = await t.app.inject({ method, url, headers: headers as Record<string, string>, payload });
  return { status: response.statusCode, body: response.json() };
};

const rule = (overrides: Partial<ScheduleRuleInput> = {}): ScheduleRuleInput => ({
  name: "Nightly backup",
  active: true,
  regular: { basic: "weekly", options: { weeks: ["last"], days: [1] }, time: "03:00" },
  active_for: "group",
  search: { filterTags: ["north"] },
  copies: 5,
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  const domainId = (await buildDomain(t)).id;
  admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  scoped = await buildApiToken(t, admin, { tagScope: ["north"] });
});
afterAll(async () => {
  await t.close();
});

describe("schedules with a tag-scoped token", () => {
  it("creates and edits a rule of its tags, and is refused one reaching further", async () => {
    const created = await call("POST", "/api/crontab/backup", bearer(scoped), rule());
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.item._id as string;
    for (const wider of [
      rule({ active_for: "all" }),
      rule({ search: { filterTags: ["north", "south"] } }),
      rule({ search: { filterTags: ["south"] } }),
    ]) {
      const refused = await call("POST", "/api/crontab/backup", bearer(scoped), wider);
      expect([refused.status, refused.body.code]).toEqual([403, "PERMISSION_DENIED"]);
      const edited = await call("PUT", `/api/crontab/backup/${id}`, bearer(scoped), wider);
      expect([edited.status, edited.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    }
    expect((await call("PUT", `/api/crontab/backup/${id}`, bearer(scoped), rule({ copies: 3 }))).status).toBe(
      200,
    );
  });

  it("lists, reads and switches only rules within its tags", async () => {
    const own = (await call("POST", "/api/crontab/backup", bearer(scoped), rule({ name: "Own" }))).body.item
      ._id;
    const domainWide = (
      await call("POST", "/api/crontab/backup", { token: admin }, rule({ active_for: "all" }))
    ).body.item._id;
    const south = (
      await call("POST", "/api/crontab/backup", { token: admin }, rule({ search: { filterTags: ["south"] } }))
    ).body.item._id;
    const listed = (await call("POST", "/api/crontab/all", bearer(scoped))).body.items.map(
      (item: { _id: string }) => item._id,
    );
    expect(listed).toContain(own);
    expect(listed).not.toContain(domainWide);
    expect(listed).not.toContain(south);
    for (const id of [domainWide, south]) {
      const read = await call("POST", `/api/crontab/backup/${id}`, bearer(scoped));
      expect([read.status, read.body.code]).toEqual([404, "TASK_NOT_FOUND"]);
      const switched = await call("PATCH", `/api/crontab/backup/${id}`, bearer(scoped), { active: false });
      expect([switched.status, switched.body.code]).toEqual([404, "TASK_NOT_FOUND"]);
    }
    // The control: the admin signed in lists all three.
    const all = (await call("POST", "/api/crontab/all", { token: admin })).body.items.map(
      (item: { _id: string }) => item._id,
    );
    expect(all).toEqual(expect.arrayContaining([own, domainWide, south]));
  });
});
