import { AccountingUserSchema, UserListAnswerSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { type BuiltUser, buildDomain, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let domainId: string;
let admin: BuiltUser;
let helper: BuiltUser;
let operator: BuiltUser;
let adminToken: string;
let helperToken: string;
let rootToken: string;

const api = (method: "POST" | "DELETE", url: string, token: string | undefined, payload?: object) =>
  callApi(t.app, method, url, token, payload);

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  admin = await buildUser(t, { role: 2, domainId });
  helper = await buildUser(t, { role: 3, domainId });
  operator = await buildUser(t, { role: 4, domainId });
  adminToken = await signIn(t.app, admin);
  helperToken = await signIn(t.app, helper);
  const root = await buildUser(t, { role: 1 });
  rootToken = await signIn(t.app, root);
});
afterAll(async () => {
  await t.close();
});

const newUser = (overrides: object = {}) => ({
  username: `person_${Math.random().toString(36).slice(2, 10)}`,
  full_name: "A Person",
  role: 4,
  email: "",
  phone: "",
  password: "Secret-pass-1",
  ...overrides,
});

describe("POST /api/users/", () => {
  it("answers 401 to an anonymous call and 403 to an operator", async () => {
    expect((await api("POST", "/api/users/", undefined, {})).status).toBe(401);
    const token = await signIn(t.app, operator);
    const answer = await api("POST", "/api/users/", token, {});
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe("PERMISSION_DENIED");
  });

  it("shows an admin the users of its own domain only", async () => {
    const other = await buildUser(t, { role: 4 });
    const answer = await api("POST", "/api/users/", adminToken, {});
    expect(answer.status).toBe(200);
    const list = UserListAnswerSchema.parse(answer.body);
    const ids = list.items.map((user) => user._id);
    expect(ids).toEqual(expect.arrayContaining([admin.id, helper.id, operator.id]));
    expect(ids).not.toContain(other.id);
  });

  it("lets a superuser see every domain, or one with domain_id, and filter by search", async () => {
    const other = await buildUser(t, { role: 4, fullName: "Zebra Unique" });
    const all = UserListAnswerSchema.parse((await api("POST", "/api/users/", rootToken, {})).body);
    expect(all.items.map((user) => user._id)).toEqual(expect.arrayContaining([admin.id, other.id]));
    const one = UserListAnswerSchema.parse(
      (await api("POST", "/api/users/", rootToken, { domain_id: domainId })).body,
    );
    expect(one.items.every((user) => user.domain_id === domainId)).toBe(true);
    const found = UserListAnswerSchema.parse(
      (await api("POST", "/api/users/", rootToken, { search: "zebra uniq" })).body,
    );
    expect(found.items.map((user) => user._id)).toEqual([other.id]);
  });

  it("answers 400 BAD_REQUEST to a bad role filter", async () => {
    const answer = await api("POST", "/api/users/", adminToken, { role: 9 });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("BAD_REQUEST");
  });
});

describe("POST /api/user/new", () => {
  it("lets an admin create an operator and a junior assistant in its domain", async () => {
    const answer = await api("POST", "/api/user/new", adminToken, newUser());
    expect(answer.status, answer.text).toBe(200);
    const user = AccountingUserSchema.parse(answer.body);
    expect(user.domain_id).toBe(domainId);
    expect(user.factory_password).toBe(true);
    const junior = await api("POST", "/api/user/new", adminToken, newUser({ role: 3, is_junior: true }));
    expect(junior.status, junior.text).toBe(200);
    expect(junior.body.is_junior).toBe(true);
  });

  it("refuses is_junior on a role other than 3 with 400", async () => {
    const answer = await api("POST", "/api/user/new", adminToken, newUser({ role: 4, is_junior: true }));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("BAD_REQUEST");
  });

  it("refuses helpers (403) and demo sessions (DEMO_PERMISSIONS_DENIED)", async () => {
    const byHelper = await api("POST", "/api/user/new", helperToken, newUser());
    expect(byHelper.status).toBe(403);
    const demo = await signInDemo(t.app);
    const byDemo = await api("POST", "/api/user/new", demo, newUser());
    expect(byDemo.status).toBe(403);
    expect(byDemo.body.code).toBe("DEMO_PERMISSIONS_DENIED");
  });

  it("answers USERNAME_EXISTED and USER_ALREADY_EXIST for taken usernames and e-mails", async () => {
    const taken = await api("POST", "/api/user/new", adminToken, newUser({ username: operator.username }));
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("USERNAME_EXISTED");
    await api("POST", "/api/user/new", adminToken, newUser({ email: "dup@example.com" }));
    const dup = await api("POST", "/api/user/new", adminToken, newUser({ email: "dup@example.com" }));
    expect(dup.body.code).toBe("USER_ALREADY_EXIST");
  });

  it("judges the password by the policy", async () => {
    const answer = await api("POST", "/api/user/new", adminToken, newUser({ password: "short" }));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("PASSWORD_INVALID_MIN_LENGTH");
  });

  it("lets a superuser create in a named domain, and answers DOMAIN_NOT_FOUND for an unknown one", async () => {
    const ok = await api("POST", "/api/user/new", rootToken, newUser({ domain_id: domainId, role: 2 }));
    expect(ok.status, ok.text).toBe(200);
    const missing = await api("POST", "/api/user/new", rootToken, newUser({ domain_id: "nope", role: 2 }));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("DOMAIN_NOT_FOUND");
  });
});

describe("POST /api/user/{user_id}", () => {
  it("reads a user of the own domain and answers 404 USER_NOT_FOUND for another domain's", async () => {
    const read = await api("POST", `/api/user/${operator.id}`, helperToken, {});
    expect(read.status).toBe(200);
    expect(read.body.username).toBe(operator.username);
    const stranger = await buildUser(t, { role: 4 });
    const other = await api("POST", `/api/user/${stranger.id}`, adminToken, {});
    expect(other.status).toBe(404);
    expect(other.body.code).toBe("USER_NOT_FOUND");
    const change = await api("POST", `/api/user/${stranger.id}`, adminToken, { full_name: "Hijacked" });
    expect(change.status).toBe(404);
  });

  it("lets a helper edit an operator but not an admin or another helper", async () => {
    const ok = await api("POST", `/api/user/${operator.id}`, helperToken, { full_name: "Edited by helper" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.full_name).toBe("Edited by helper");
    expect((await api("POST", `/api/user/${admin.id}`, helperToken, { full_name: "x" })).status).toBe(403);
    const other = await buildUser(t, { role: 3, domainId });
    expect((await api("POST", `/api/user/${other.id}`, helperToken, { full_name: "x" })).status).toBe(403);
  });

  it("lets a helper change its own password but nothing else of itself", async () => {
    const self = await buildUser(t, { role: 3, domainId });
    const token = await signIn(t.app, self);
    const ok = await api("POST", `/api/user/${self.id}`, token, { password: "Brand-new-pass-7" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.factory_password).toBe(false);
    expect((await api("POST", `/api/user/${self.id}`, token, { full_name: "x" })).status).toBe(403);
  });

  it("keeps a helper from promoting an operator", async () => {
    const answer = await api("POST", `/api/user/${operator.id}`, helperToken, { role: 2 });
    expect(answer.status).toBe(403);
  });

  it("blocks and unblocks a user; a blocked user cannot sign in", async () => {
    const person = await buildUser(t, { role: 4, domainId });
    expect((await api("POST", `/api/user/${person.id}`, adminToken, { blocked: true })).body.blocked).toBe(
      true,
    );
    const login = await api("POST", "/api/login/", undefined, {
      username: person.username,
      password: person.password,
    });
    expect(login.body.code).toBe("USER_BLOCKED");
    expect((await api("POST", `/api/user/${person.id}`, adminToken, { blocked: false })).body.blocked).toBe(
      false,
    );
    expect(
      (await api("POST", "/api/login/", undefined, { username: person.username, password: person.password }))
        .status,
    ).toBe(200);
  });

  it("sets a factory password when an admin sets someone's password", async () => {
    const person = await buildUser(t, { role: 4, domainId });
    const answer = await api("POST", `/api/user/${person.id}`, adminToken, { password: "Set-by-admin-9" });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.factory_password).toBe(true);
    const login = await api("POST", "/api/login/", undefined, {
      username: person.username,
      password: "Set-by-admin-9",
    });
    expect(login.status).toBe(200);
    expect(login.body.factory_password).toBe(true);
  });
});

describe("DELETE /api/user/{user_id}", () => {
  it("refuses helpers, removes for admins, then answers USER_REMOVED", async () => {
    const person = await buildUser(t, { role: 4, domainId });
    const personToken = await signIn(t.app, person);
    expect((await api("DELETE", `/api/user/${person.id}`, helperToken)).status).toBe(403);
    const removed = await api("DELETE", `/api/user/${person.id}`, adminToken);
    expect(removed.status, removed.text).toBe(200);
    const again = await api("POST", `/api/user/${person.id}`, adminToken, {});
    expect(again.status).toBe(403);
    expect(again.body.code).toBe("USER_REMOVED");
    const login = await api("POST", "/api/login/", undefined, {
      username: person.username,
      password: person.password,
    });
    expect(login.body.code).toBe("USER_REMOVED");
    // Its sessions ended with the removal.
    expect((await api("POST", "/api/profile", personToken, {})).status).toBe(401);
    const list = UserListAnswerSchema.parse((await api("POST", "/api/users/", adminToken, {})).body);
    expect(list.items.map((user) => user._id)).not.toContain(person.id);
  });

  it("answers 404 for another domain's user and refuses removing oneself", async () => {
    const stranger = await buildUser(t, { role: 4 });
    expect((await api("DELETE", `/api/user/${stranger.id}`, adminToken)).status).toBe(404);
    expect((await api("DELETE", `/api/user/${admin.id}`, adminToken)).status).toBe(403);
  });
});

describe("the demo user (issue 11: an empty list, and its own record unreadable)", () => {
  it("sees itself in the list and reads its own record; nobody changes or removes it", async () => {
    const demoToken = await signInDemo(t.app);
    const list = UserListAnswerSchema.parse((await api("POST", "/api/users/", demoToken, {})).body);
    const demo = await t.db
      .selectFrom("users")
      .select("id")
      .where("is_demo", "=", true)
      .executeTakeFirstOrThrow();
    expect(list.items.map((user) => user._id)).toContain(demo.id);
    const own = await api("POST", `/api/user/${demo.id}`, demoToken, {});
    expect(own.status).toBe(200);
    expect(AccountingUserSchema.parse(own.body)._id).toBe(demo.id);
    const changed = await api("POST", `/api/user/${demo.id}`, rootToken, { full_name: "Renamed" });
    expect(changed.body.code).toBe("DEMO_PERMISSIONS_DENIED");
    const removed = await api("DELETE", `/api/user/${demo.id}`, rootToken);
    expect(removed.body.code).toBe("DEMO_PERMISSIONS_DENIED");
  });
});
