import { AUDIT_ROUTES, type AuditObject } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 27 item 14: every entry of the audit log says what was done to which object. The route
// walk fails for a saving or audited route the table AUDIT_ROUTES does not word, or whose object id
// it looks for where the route has none; the calls below fail when an entry names no object.

let t: TestApp;
let admin: { id: string; token: string };
let junior: { id: string; token: string };
let domainId: string;

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  const adminUser = await buildUser(t, { role: 2, domainId });
  admin = { id: adminUser.id, token: await signIn(t.app, adminUser) };
  const juniorUser = await buildUser(t, { role: 3, domainId, isJunior: true });
  junior = { id: juniorUser.id, token: await signIn(t.app, juniorUser) };
});
afterAll(async () => {
  await t.close();
});

async function call(method: "POST" | "PUT" | "DELETE", url: string, token: string, payload?: object) {
  const response = await t.app.inject({ method, url, headers: { token }, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, unknown>;
}

/** The newest entry of a kind, once the log has settled. */
async function lastEntry(kind: string): Promise<{ action: string; object: AuditObject | null }> {
  await t.app.auditLog.settle();
  const row = await t.db
    .selectFrom("web_actions")
    .select(["action", "object"])
    .where("kind", "=", kind)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return row;
}

describe("the audit table", () => {
  it("words every route that saves or is audited, and looks for its object where the route has it", () => {
    const audited = t.app.apiRoutes.filter((route) => route.saves !== undefined || route.isAudited);
    expect(audited.length).toBeGreaterThan(70);
    const unworded = audited
      .map((route) => `${route.method} ${route.url}`)
      .filter((key) => AUDIT_ROUTES[key] === undefined);
    expect(unworded).toEqual([]);
    const badParams = Object.entries(AUDIT_ROUTES)
      .filter(([key, route]) => route.id.startsWith("param:") && !key.includes(`/:${route.id.slice(6)}`))
      .map(([key]) => key);
    expect(badParams).toEqual([]);
  });

  it("names no route the app does not have", () => {
    const registered = new Set(t.app.apiRoutes.map((route) => `${route.method} ${route.url}`));
    expect(Object.keys(AUDIT_ROUTES).filter((key) => !registered.has(key))).toEqual([]);
  });
});

describe("entries name their object", () => {
  it("a deleted script by its name, though the call carried none", async () => {
    const script = await call("POST", "/api/script/new", admin.token, {
      name: "Uptime check",
      text: "uptime",
    });
    await call("DELETE", `/api/script/${String(script._id)}`, admin.token);
    expect(await lastEntry("script.delete")).toEqual({
      action: "DELETE_script",
      object: { type: "script", id: script._id, name: "Uptime check", count: null },
    });
    expect((await lastEntry("script.create")).object).toMatchObject({ id: script._id, name: "Uptime check" });
  });

  it("a router whose key was made anew by its ident", async () => {
    const device = await buildDevice(t, domainId);
    await call("POST", `/api/device/${device.id}/key`, admin.token, {});
    expect(await lastEntry("device.key")).toEqual({
      action: "POST_device",
      object: { type: "device", id: device.id, name: device.ident, count: null },
    });
  });

  it("approving and declining as two deeds on the command", async () => {
    await buildDevice(t, domainId, { tags: ["audit"] });
    const one = await call("POST", "/api/command/new", junior.token, {
      type: "reboot",
      targets: { tags: ["audit"] },
    });
    const two = await call("POST", "/api/command/new", junior.token, {
      type: "reboot",
      targets: { tags: ["audit"] },
    });
    await call("POST", `/api/command/${String(one._id)}/approve`, admin.token);
    await call("POST", `/api/command/${String(two._id)}/decline`, admin.token);
    const approved = await lastEntry("command.approve");
    const declined = await lastEntry("command.decline");
    expect(approved.action).toBe(declined.action);
    expect(approved.object).toEqual({ type: "command", id: one._id, name: "reboot", count: null });
    expect(declined.object).toEqual({ type: "command", id: two._id, name: "reboot", count: null });
  });

  it("a schedule changed by PUT by its name", async () => {
    const rule = {
      name: "Nightly backup",
      active: true,
      regular: { basic: "weekly", options: { weeks: ["last"], days: [1] }, time: "03:00" },
      active_for: "group",
      search: { filterTags: ["north"] },
      copies: 5,
    };
    const created = (await call("POST", "/api/crontab/backup", admin.token, rule)).item as { _id: string };
    expect((await lastEntry("schedule.create")).object).toMatchObject({ id: created._id, name: rule.name });
    await call("PUT", `/api/crontab/backup/${created._id}`, admin.token, { ...rule, name: "Night copy" });
    expect((await lastEntry("schedule.edit")).object).toEqual({
      type: "schedule",
      id: created._id,
      name: "Night copy",
      count: null,
    });
  });

  it("a refused call keeps the id it named but reads no name from the database", async () => {
    const other = await buildDomain(t);
    const foreign = await buildDevice(t, other.id);
    const response = await t.app.inject({
      method: "DELETE",
      url: `/api/device/${foreign.id}`,
      headers: { token: admin.token },
    });
    expect(response.statusCode).toBe(404);
    await t.app.auditLog.settle();
    const row = await t.db
      .selectFrom("web_actions")
      .select(["status", "object"])
      .where("kind", "=", "device.delete")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: "FAILURE",
      object: { type: "device", id: foreign.id, name: null, count: null },
    });
  });
});
