import { API_TOKEN_PREFIX, type ApiToken } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { type BuiltUser, buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Personal API tokens end to end through the app (ADR 040): made on the profile page's calls, used
// as `Authorization: Bearer` on the routes, limited to their actions and their person's, refused
// for tokens' own management and passwords, expired, revoked, fenced by address and by domain.

const DAY = 86_400_000;

let t: TestApp;
let domainId: string;
let admin: BuiltUser;
let adminSession: string;
let operatorSession: string;
let assistantSession: string;
let otherAdminSession: string;
let deviceId: string;
let otherDeviceId: string;

async function call(
  method: "POST" | "DELETE",
  url: string,
  auth: { session?: string; bearer?: string; ip?: string },
  payload?: object,
) {
  const headers: Record<string, string> = {};
  if (auth.session) headers.token = auth.session;
  if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
  const response = await t.app.inject({
    method,
    url,
    headers,
    ...(auth.ip ? { remoteAddress: auth.ip } : {}),
    ...(payload === undefined ? {} : { payload }),
  });
  let body: Record<string, unknown> & { code?: string } = {};
  try {
    body = response.json();
  } catch {
    body = {};
  }
  return { status: response.statusCode, body, text: response.body };
}

/** Makes a token as the signed-in `session` and answers its secret and its listed form. */
async function makeToken(
  session: string,
  fields: { permissions: string[]; name?: string; days?: number; allowed_ips?: string[] },
): Promise<{ token: string; item: ApiToken }> {
  const answer = await call(
    "POST",
    "/api/tokens/new",
    { session },
    {
      name: fields.name ?? "script",
      expires_at: t.clock.now().getTime() + (fields.days ?? 30) * DAY,
      permissions: fields.permissions,
      allowed_ips: fields.allowed_ips ?? [],
    },
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body as unknown as { token: string; item: ApiToken };
}

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  admin = await buildUser(t, { role: 2, domainId });
  adminSession = await signIn(t.app, admin);
  operatorSession = await signIn(t.app, await buildUser(t, { role: 4, domainId }));
  assistantSession = await signIn(t.app, await buildUser(t, { role: 3, domainId }));
  const otherDomainId = (await buildDomain(t)).id;
  otherAdminSession = await signIn(t.app, await buildUser(t, { role: 2, domainId: otherDomainId }));
  deviceId = (await buildDevice(t, domainId)).id;
  otherDeviceId = (await buildDevice(t, otherDomainId)).id;
});
afterAll(async () => {
  await t.close();
});

describe("making and listing tokens", () => {
  it("shows the secret once, stores only its hash, and lists the token without it", async () => {
    const { token, item } = await makeToken(adminSession, { permissions: ["devices.view"], name: "nightly" });
    expect(token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(item).toMatchObject({ name: "nightly", permissions: ["devices.view"], last_used_at: null });
    const row = await t.db
      .selectFrom("api_tokens")
      .selectAll()
      .where("id", "=", item._id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token.slice(API_TOKEN_PREFIX.length, 20));
    expect(JSON.stringify(row)).not.toContain(token);
    const list = await call("POST", "/api/tokens", { session: adminSession });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(token);
    expect((list.body.items as ApiToken[]).map((listed) => listed._id)).toContain(item._id);
  });

  it("offers only what the person may do, and refuses a token carrying more (403)", async () => {
    const options = await call("POST", "/api/tokens/options", { session: operatorSession });
    const offered = options.body.permissions as string[];
    expect(offered).toContain("devices.view");
    expect(offered).not.toContain("devices.edit");
    expect(offered.some((action) => action.startsWith("apiTokens."))).toBe(false);
    const refused = await call(
      "POST",
      "/api/tokens/new",
      { session: operatorSession },
      {
        name: "too much",
        expires_at: t.clock.now().getTime() + DAY,
        permissions: ["devices.view", "devices.edit"],
      },
    );
    expect([refused.status, refused.body.code]).toEqual([403, "PERMISSION_DENIED"]);
  });

  it("refuses a past expiry, one beyond a year, and a malformed network (400)", async () => {
    const base = { name: "x", permissions: ["devices.view"] };
    const now = t.clock.now().getTime();
    for (const expires_at of [now - 1000, now + 400 * DAY]) {
      const answer = await call(
        "POST",
        "/api/tokens/new",
        { session: adminSession },
        { ...base, expires_at },
      );
      expect(answer.status, answer.text).toBe(400);
    }
    const badNetwork = await call(
      "POST",
      "/api/tokens/new",
      { session: adminSession },
      {
        ...base,
        expires_at: now + DAY,
        allowed_ips: ["10.0.0.0/33"],
      },
    );
    expect(badNetwork.status).toBe(400);
  });
});

describe("calling the API with a token", () => {
  it("answers a Bearer call as its person, and records when and from where it was used", async () => {
    const { token, item } = await makeToken(adminSession, { permissions: ["devices.view"] });
    const answer = await call("POST", `/api/device/${deviceId}`, { bearer: token, ip: "10.9.8.7" });
    expect(answer.status, answer.text).toBe(200);
    const list = await call("POST", "/api/tokens", { session: adminSession });
    const listed = (list.body.items as ApiToken[]).find((one) => one._id === item._id);
    expect(listed).toMatchObject({ last_used_ip: "10.9.8.7", last_used_at: t.clock.now().getTime() });
  });

  it("does only what the token carries: another action of its person is 403", async () => {
    const { token } = await makeToken(adminSession, { permissions: ["devices.view"] });
    const edit = await call("POST", `/api/device/${deviceId}/edit`, { bearer: token }, { description: "x" });
    expect([edit.status, edit.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const users = await call("POST", "/api/users/", { bearer: token }, {});
    expect([users.status, users.body.code]).toEqual([403, "PERMISSION_DENIED"]);
  });

  it("loses an action as soon as its person does", async () => {
    const person = await buildUser(t, { role: 2, domainId });
    const { token } = await makeToken(await signIn(t.app, person), {
      permissions: ["devices.view", "devices.edit"],
    });
    const before = await call(
      "POST",
      `/api/device/${deviceId}/edit`,
      { bearer: token },
      { description: "a" },
    );
    expect(before.status, before.text).toBe(200);
    await t.db.updateTable("users").set({ role: 4 }).where("id", "=", person.id).execute();
    const after = await call("POST", `/api/device/${deviceId}/edit`, { bearer: token }, { description: "b" });
    expect([after.status, after.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const read = await call("POST", `/api/device/${deviceId}`, { bearer: token });
    expect(read.status).toBe(200);
  });

  it("sees nothing of another domain (404), and lists only its own domain's routers", async () => {
    const { token } = await makeToken(adminSession, { permissions: ["devices.view", "devices.edit"] });
    const other = await call("POST", `/api/device/${otherDeviceId}`, { bearer: token });
    expect([other.status, other.body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    const edit = await call(
      "POST",
      `/api/device/${otherDeviceId}/edit`,
      { bearer: token },
      { description: "x" },
    );
    expect([edit.status, edit.body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    const list = await call("POST", "/api/devices", { bearer: token }, { size: 100 });
    expect(list.status).toBe(200);
    expect(list.text).toContain(deviceId);
    expect(list.text).not.toContain(otherDeviceId);
  });

  it("is a Bearer token only: not in the Token header, and a session token is no Bearer token", async () => {
    const { token } = await makeToken(adminSession, { permissions: ["devices.view"] });
    const asSession = await call("POST", `/api/device/${deviceId}`, { session: token });
    expect([asSession.status, asSession.body.code]).toEqual([401, "TOKEN_INVALID"]);
    const sessionAsBearer = await call("POST", `/api/device/${deviceId}`, { bearer: adminSession });
    expect([sessionAsBearer.status, sessionAsBearer.body.code]).toEqual([401, "TOKEN_INVALID"]);
  });

  it("answers only from its allowed networks (403 ACCESS_DENIED elsewhere), IPv4 and IPv6", async () => {
    const { token } = await makeToken(adminSession, {
      permissions: ["devices.view"],
      allowed_ips: ["10.20.0.0/16", "2001:db8::/32"],
    });
    const url = `/api/device/${deviceId}`;
    expect((await call("POST", url, { bearer: token, ip: "10.20.3.4" })).status).toBe(200);
    expect((await call("POST", url, { bearer: token, ip: "::ffff:10.20.3.5" })).status).toBe(200);
    expect((await call("POST", url, { bearer: token, ip: "2001:db8::7" })).status).toBe(200);
    const outside = await call("POST", url, { bearer: token, ip: "10.21.0.1" });
    expect([outside.status, outside.body.code]).toEqual([403, "ACCESS_DENIED"]);
    const outside6 = await call("POST", url, { bearer: token, ip: "2001:db9::1" });
    expect([outside6.status, outside6.body.code]).toEqual([403, "ACCESS_DENIED"]);
  });
});

describe("what a token never does", () => {
  it("manages no tokens, changes no password (403), though it may change a name", async () => {
    const { token } = await makeToken(adminSession, {
      permissions: ["account.self", "profile.edit", "users.edit"],
    });
    const make = await call(
      "POST",
      "/api/tokens/new",
      { bearer: token },
      {
        name: "child",
        expires_at: t.clock.now().getTime() + DAY,
        permissions: ["devices.view"],
      },
    );
    expect([make.status, make.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const list = await call("POST", "/api/tokens", { bearer: token });
    expect([list.status, list.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const password = await call(
      "POST",
      "/api/profile",
      { bearer: token },
      {
        password: { current: admin.password, new: "N3w-Passw0rd!x", confirm: "N3w-Passw0rd!x" },
      },
    );
    expect([password.status, password.body.code]).toEqual([403, "ACCESS_DENIED"]);
    const member = await buildUser(t, { role: 4, domainId });
    const theirs = await call(
      "POST",
      `/api/user/${member.id}`,
      { bearer: token },
      { password: "N3w-Passw0rd!x" },
    );
    expect([theirs.status, theirs.body.code]).toEqual([403, "ACCESS_DENIED"]);
    const name = await call("POST", "/api/profile", { bearer: token }, { full_name: "Renamed by script" });
    expect(name.status, name.text).toBe(200);
  });

  it("records every save as its person via the token, and a session's save without one", async () => {
    const { token } = await makeToken(adminSession, {
      permissions: ["devices.edit"],
      name: "inventory sync",
    });
    await call("POST", `/api/device/${deviceId}/edit`, { bearer: token }, { description: "by script" });
    await call("POST", `/api/device/${deviceId}/edit`, { session: adminSession }, { description: "by hand" });
    await t.app.auditLog.settle();
    const log = await call(
      "POST",
      "/api/web_actions/",
      { session: adminSession },
      { action: ["POST_device"] },
    );
    const entries = log.body.items as { author: string; via_token: string | null; info: object }[];
    const byScript = entries.find((entry) => JSON.stringify(entry.info).includes("by script"));
    const byHand = entries.find((entry) => JSON.stringify(entry.info).includes("by hand"));
    expect(byScript).toMatchObject({ author: admin.username, via_token: "inventory sync" });
    expect(byHand).toMatchObject({ author: admin.username, via_token: null });
    // The archive's CSV names the token too (its second column), and leaves it empty for a session.
    const csv = await t.app.inject({
      method: "POST",
      url: "/api/web_actions/export",
      headers: { token: adminSession },
      payload: { action: ["POST_device"] },
    });
    const rows = csv.body.trim().split("\r\n");
    expect(rows[0]?.startsWith("author,via_token,")).toBe(true);
    expect(rows.find((row) => row.includes("by script"))).toContain(`${admin.username},inventory sync,`);
    expect(rows.find((row) => row.includes("by hand"))).toContain(`${admin.username},,POST_device`);
  });
});

describe("revoking", () => {
  it("ends a token at once; a second revoke is 404", async () => {
    const { token, item } = await makeToken(adminSession, { permissions: ["devices.view"] });
    const revoke = await call("DELETE", `/api/tokens/${item._id}`, { session: adminSession });
    expect(revoke.status, revoke.text).toBe(200);
    const after = await call("POST", `/api/device/${deviceId}`, { bearer: token });
    expect([after.status, after.body.code]).toEqual([401, "TOKEN_INVALID"]);
    expect((await call("DELETE", `/api/tokens/${item._id}`, { session: adminSession })).status).toBe(404);
  });

  it("lets nobody revoke another person's token as their own (404)", async () => {
    const { item } = await makeToken(operatorSession, { permissions: ["devices.view"] });
    const answer = await call("DELETE", `/api/tokens/${item._id}`, { session: assistantSession });
    expect(answer.status).toBe(404);
  });

  it("shows admins their domain's tokens and lets them revoke one; not other domains', not assistants", async () => {
    const { token, item } = await makeToken(operatorSession, { permissions: ["devices.view"], name: "op" });
    const list = await call("POST", "/api/tokens/domain", { session: adminSession });
    expect((list.body.items as ApiToken[]).find((one) => one._id === item._id)).toMatchObject({ name: "op" });
    const foreign = await call("POST", "/api/tokens/domain", { session: otherAdminSession });
    expect((foreign.body.items as ApiToken[]).some((one) => one._id === item._id)).toBe(false);
    const assistant = await call("POST", "/api/tokens/domain", { session: assistantSession });
    expect([assistant.status, assistant.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const foreignRevoke = await call("DELETE", `/api/tokens/domain/${item._id}`, {
      session: otherAdminSession,
    });
    expect(foreignRevoke.status).toBe(404);
    const revoke = await call("DELETE", `/api/tokens/domain/${item._id}`, { session: adminSession });
    expect(revoke.status, revoke.text).toBe(200);
    expect((await call("POST", `/api/device/${deviceId}`, { bearer: token })).status).toBe(401);
  });
});

// Last: moving the clock a day on ends the file's signed-in sessions too.
describe("expiry", () => {
  it("stops at its expiry (401 TOKEN_HAS_EXPIRED)", async () => {
    const { token } = await makeToken(adminSession, { permissions: ["devices.view"], days: 1 });
    expect((await call("POST", `/api/device/${deviceId}`, { bearer: token })).status).toBe(200);
    t.clock.advance(DAY + 1000);
    const late = await call("POST", `/api/device/${deviceId}`, { bearer: token });
    expect([late.status, late.body.code]).toEqual([401, "TOKEN_HAS_EXPIRED"]);
  });
});
