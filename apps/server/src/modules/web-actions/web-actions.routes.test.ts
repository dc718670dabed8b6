import { WebActionsAnswerSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditActionName, sanitizeAuditInfo } from "../../platform/audit/sanitize";
import { callApi } from "../../test/accounting-helpers";
import { type BuiltUser, buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let domainId: string;
let admin: BuiltUser;
let adminToken: string;
let rootToken: string;
let otherAdminToken: string;

const api = (url: string, token: string | undefined, payload?: object) =>
  callApi(t.app, "POST", url, token, payload);
async function entries(token: string, payload: object = {}) {
  await t.app.auditLog.settle();
  const answer = await api("/api/web_actions/", token, payload);
  expect(answer.status, answer.text).toBe(200);
  return WebActionsAnswerSchema.parse(answer.body).items;
}

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  admin = await buildUser(t, { role: 2, domainId });
  adminToken = await signIn(t.app, admin);
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  otherAdminToken = await signIn(t.app, await buildUser(t, { role: 2 }));
});
afterAll(async () => {
  await t.close();
});

describe("the audit log", () => {
  it("records a save with author, action, status, ip and info with secrets hidden", async () => {
    const operator = await buildUser(t, { role: 4, domainId });
    await api(`/api/user/${operator.id}`, adminToken, {
      full_name: "Audited",
      password: "Hidden-pass-11",
      policy_id: null,
    });
    const [entry] = await entries(adminToken, { action: ["POST_user"] });
    expect(entry).toMatchObject({
      author: admin.username,
      action: "POST_user",
      status: "SUCCESS",
      client_ip: "127.0.0.1",
    });
    expect(entry?.info).toEqual({ full_name: "Audited", password: "***", policy_id: "***" });
  });

  it("records failures, sign-ins and wrong passwords", async () => {
    await api("/api/user/new", adminToken, { username: "x", full_name: "X", role: 4, password: "p" });
    const [failure] = await entries(adminToken, { status: ["FAILURE"], action: ["POST_user"] });
    expect(failure?.status).toBe("FAILURE");
    await api("/api/login/", undefined, { username: admin.username, password: "wrong password" });
    const logins = await entries(adminToken, { action: ["POST_login"] });
    expect(logins[0]).toMatchObject({
      author: admin.username,
      status: "FAILURE",
      info: { username: admin.username, password: "***" },
    });
    expect(logins.some((entry) => entry.status === "SUCCESS")).toBe(true);
  });

  it("records the demo sign-in under the demo user", async () => {
    await api("/api/login/", undefined, { demo: true });
    const [entry] = await entries(rootToken, { action: ["POST_login"], author: ["demo"] });
    expect(entry).toMatchObject({ author: "demo", status: "SUCCESS", info: { demo: true } });
  });

  it("shows an admin only its domain's entries and a superuser everything", async () => {
    const mine = await entries(adminToken);
    expect(mine.length).toBeGreaterThan(0);
    const theirs = await entries(otherAdminToken);
    expect(theirs.every((entry) => entry.author !== admin.username)).toBe(true);
    const all = await entries(rootToken);
    expect(all.some((entry) => entry.author === admin.username)).toBe(true);
    expect(all.length).toBeGreaterThan(mine.length);
  });

  it("filters by window (since/for and last), author, search; pages with limit and offset", async () => {
    const now = t.clock.now().getTime();
    t.clock.advanceMinutes(10);
    await api("/api/logout/", otherAdminToken, {});
    const recent = await entries(rootToken, { last: 5 * 60_000 });
    expect(recent.map((entry) => entry.action)).toEqual(["POST_logout"]);
    const window = await entries(rootToken, { since: now - 60_000, for: 120_000 });
    expect(window.every((entry) => Math.abs(entry.create_time - now) <= 120_000)).toBe(true);
    expect(window.some((entry) => entry.action === "POST_logout")).toBe(false);
    const byAuthor = await entries(rootToken, { author: [admin.username] });
    expect(byAuthor.every((entry) => entry.author === admin.username)).toBe(true);
    const searched = await entries(rootToken, { search: "audited" });
    expect(searched.length).toBe(1);
    const first = await entries(rootToken, { limit: 1 });
    const second = await entries(rootToken, { limit: 1, offset: 1 });
    expect(first).toHaveLength(1);
    expect(second[0]?._id).not.toBe(first[0]?._id);
  });

  it("downloads the filtered log as CSV", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/web_actions/export",
      headers: { token: adminToken },
      payload: { action: ["POST_user"] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/text\/csv/);
    expect(response.headers["content-disposition"]).toContain("web_actions.csv");
    const lines = response.body.trim().split("\r\n");
    expect(lines[0]).toBe("author,via_token,action,kind,object,status,create_time,client_ip,info");
    expect(lines.slice(1).every((line) => line.includes(",POST_user,"))).toBe(true);
    expect(response.body).not.toContain("Hidden-pass-11");
  });

  it("answers 401 anonymously, 403 to helpers and 400 to a bad body", async () => {
    expect((await api("/api/web_actions/", undefined, {})).status).toBe(401);
    const helper = await signIn(t.app, await buildUser(t, { role: 3, domainId }));
    expect((await api("/api/web_actions/", helper, {})).status).toBe(403);
    const bad = await api("/api/web_actions/", adminToken, { limit: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("BAD_REQUEST");
  });
});

describe("sanitizeAuditInfo", () => {
  it("hides password and _id keys but keeps device_id, and turns timestamps into dates", () => {
    expect(
      sanitizeAuditInfo({
        device_id: "dev-1",
        policy_id: "p",
        new_password: "x",
        nested: { user_id: "u", create_time: 1_700_000_000_000, since: 1_700_000_000 },
        count: 5,
        stamps: [1_700_000_000_000],
      }),
    ).toEqual({
      device_id: "dev-1",
      policy_id: "***",
      new_password: "***",
      nested: { user_id: "***", create_time: "2023-11-14T22:13:20.000Z", since: "2023-11-14T22:13:20.000Z" },
      count: 5,
      stamps: ["2023-11-14T22:13:20.000Z"],
    });
  });

  it("names actions by method and section", () => {
    expect(auditActionName("post", "/api/devices/:id?x=1")).toBe("POST_devices");
    expect(auditActionName("DELETE", "/api/user/:userId")).toBe("DELETE_user");
  });
});
