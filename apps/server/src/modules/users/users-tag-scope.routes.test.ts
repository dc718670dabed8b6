import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { type BuiltUser, buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 30, ADR 041: an admin limits an assistant, a junior or an operator to routers with chosen
// tags through the users API; the save is audited and bad input answers its code.

let t: TestApp;
let domainId: string;
let adminToken: string;
let rootToken: string;
let helper: BuiltUser;
let helperToken: string;

const api = (url: string, token: string | undefined, payload?: object) =>
  callApi(t.app, "POST", url, token, payload);

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  adminToken = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  helper = await buildUser(t, { role: 3, domainId, tagScope: ["north"] });
  helperToken = await signIn(t.app, helper);
});
afterAll(async () => {
  await t.close();
});

describe("a user's tag scope through POST /api/user/{id}", () => {
  it("is saved by an admin, answered with the user, and audited", async () => {
    const operator = await buildUser(t, { role: 4, domainId });
    const saved = await api(`/api/user/${operator.id}`, adminToken, {
      tag_scope: ["north", "south", "north"],
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.tag_scope).toEqual(["north", "south"]);
    const read = await api(`/api/user/${operator.id}`, adminToken);
    expect(read.body.tag_scope).toEqual(["north", "south"]);
    await t.app.auditLog.settle();
    const { rows } = await sql<{ count: string }>`select count(*) as count from web_actions
      where status = 'SUCCESS' and object::text like ${`%${operator.id}%`} and info::text like '%tag_scope%'`.execute(
      t.db,
    );
    expect(Number(rows[0]?.count)).toBe(1);
  });

  it("is set on a new assistant by a superuser, and cleared by an empty list", async () => {
    const created = await api("/api/user/new", rootToken, {
      username: `scoped_${Math.random().toString(36).slice(2, 10)}`,
      full_name: "Scoped",
      role: 3,
      domain_id: domainId,
      email: "",
      phone: "",
      password: "Secret-pass-1",
      tag_scope: ["east"],
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.tag_scope).toEqual(["east"]);
    const cleared = await api(`/api/user/${created.body._id}`, adminToken, { tag_scope: [] });
    expect(cleared.body.tag_scope).toEqual([]);
  });

  it("refuses an invalid tag and a non-list with 400 BAD_REQUEST naming the field", async () => {
    const operator = await buildUser(t, { role: 4, domainId });
    for (const tag_scope of [["a"], ["has space"], "north", [1]]) {
      const answer = await api(`/api/user/${operator.id}`, adminToken, { tag_scope });
      expect([answer.status, answer.body.code], answer.text).toEqual([400, "BAD_REQUEST"]);
      expect(String(answer.body.message)).toContain("tag_scope");
    }
  });

  it("refuses a scope for an admin (400), and a role change to admin drops it", async () => {
    const admin = await buildUser(t, { role: 2, domainId });
    const refused = await api(`/api/user/${admin.id}`, rootToken, { tag_scope: ["north"] });
    expect([refused.status, refused.body.code], refused.text).toEqual([400, "BAD_REQUEST"]);
    const operator = await buildUser(t, { role: 4, domainId, tagScope: ["north"] });
    const promoted = await api(`/api/user/${operator.id}`, adminToken, { role: 2 });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body.tag_scope).toEqual([]);
  });

  it("is not for assistants to set (403), and a limited assistant edits only people within its tags", async () => {
    const inside = await buildUser(t, { role: 4, domainId, tagScope: ["north"] });
    const outside = await buildUser(t, { role: 4, domainId });
    const widened = await api(`/api/user/${inside.id}`, helperToken, { tag_scope: [] });
    expect([widened.status, widened.body.code], widened.text).toEqual([403, "PERMISSION_DENIED"]);
    const renamed = await api(`/api/user/${inside.id}`, helperToken, { full_name: "Inside" });
    expect(renamed.status, renamed.text).toBe(200);
    const reset = await api(`/api/user/${outside.id}`, helperToken, { password: "An0ther-pass-1" });
    expect([reset.status, reset.body.code], reset.text).toEqual([403, "PERMISSION_DENIED"]);
  });

  it("answers an unknown or another domain's user with 404 USER_NOT_FOUND", async () => {
    const stranger = await buildUser(t, { role: 4 });
    const answer = await api(`/api/user/${stranger.id}`, adminToken, { tag_scope: ["north"] });
    expect([answer.status, answer.body.code]).toEqual([404, "USER_NOT_FOUND"]);
  });
});
