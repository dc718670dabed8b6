import { SessionUserSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildPolicy, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function login(payload: unknown, url = "/api/login/") {
  return t.app.inject({ method: "POST", url, payload: payload as object });
}

function self(token?: string, via: "header" | "body" = "header") {
  if (token === undefined) return t.app.inject({ method: "POST", url: "/api/accounting/self" });
  return via === "header"
    ? t.app.inject({ method: "POST", url: "/api/accounting/self", headers: { token } })
    : t.app.inject({ method: "POST", url: "/api/accounting/self", payload: { token } });
}

describe("POST /api/login/", () => {
  it("signs in and answers the session user", async () => {
    const domain = await buildDomain(t);
    const user = await buildUser(t, { domainId: domain.id, role: 3, fullName: "Ivan Petrov" });
    const response = await login({ username: user.username, password: user.password });
    expect(response.statusCode).toBe(200);
    const body = SessionUserSchema.parse(response.json());
    expect(body).toMatchObject({
      _id: user.id,
      username: user.username,
      role: 3,
      name: "Ivan Petrov",
      domain_name: domain.name,
      plugins: ["notification", "accounting", "keychain"],
      factory_password: false,
      is_demo: false,
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The answer holds a token: no cache on the way may keep it.
    expect(response.headers["cache-control"]).toBe("no-store");
    const stored = await t.db
      .selectFrom("sessions")
      .select("token_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toBe(body.token);
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("records last_login and the domain's last_session", async () => {
    const domain = await buildDomain(t);
    const user = await buildUser(t, { domainId: domain.id });
    await signIn(t.app, user);
    const row = await t.db
      .selectFrom("users")
      .select(["last_login", "failed_attempts"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.last_login?.getTime()).toBe(t.clock.now().getTime());
    const domainRow = await t.db
      .selectFrom("domains")
      .select("last_session")
      .where("id", "=", domain.id)
      .executeTakeFirstOrThrow();
    expect(domainRow.last_session?.getTime()).toBe(t.clock.now().getTime());
  });

  it("answers on /api/login without the slash, matches usernames case-insensitively, names by username", async () => {
    const user = await buildUser(t);
    const response = await login(
      { username: user.username.toUpperCase(), password: user.password },
      "/api/login",
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().name).toBe(user.username);
  });

  it("refuses a wrong password with 401 WRONG_LOGIN_OR_PASSWORD and counts the failure", async () => {
    const user = await buildUser(t);
    const response = await login({ username: user.username, password: `${user.password}x` });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("WRONG_LOGIN_OR_PASSWORD");
    const row = await t.db
      .selectFrom("users")
      .select("failed_attempts")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(1);
  });

  it("answers an unknown user exactly as a wrong password", async () => {
    const user = await buildUser(t);
    const wrongPassword = await login({ username: user.username, password: "not-the-password" });
    const unknownUser = await login({ username: "nobody-at-all", password: "not-the-password" });
    expect(unknownUser.statusCode).toBe(401);
    expect(unknownUser.json()).toEqual(wrongPassword.json());
  });

  it("refuses a blocked user with 403 USER_BLOCKED, but only to someone who knows the password", async () => {
    const user = await buildUser(t, { blocked: true });
    const right = await login({ username: user.username, password: user.password });
    expect(right.statusCode).toBe(403);
    expect(right.json().code).toBe("USER_BLOCKED");
    const wrong = await login({ username: user.username, password: "wrong-password" });
    expect(wrong.json().code).toBe("WRONG_LOGIN_OR_PASSWORD");
  });

  it("refuses an expired password with 403 PASSWORD_EXPIRED", async () => {
    const user = await buildUser(t, { passwordExpireDate: new Date(t.clock.now().getTime() - 1000) });
    const response = await login({ username: user.username, password: user.password });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("PASSWORD_EXPIRED");
  });

  it("refuses a body that fails the schema with 400 BAD_REQUEST and a readable message", async () => {
    const response = await login({ username: "someone" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "BAD_REQUEST",
      message: expect.stringContaining("body.password"),
    });
  });

  it("signs in the read-only demo user with { demo: true }", async () => {
    const response = await login({ demo: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: "demo", role: 2, is_demo: true, domain_name: "demo" });
  });
});

describe("POST /api/accounting/self", () => {
  it("refuses an anonymous call with 401 TOKEN_NOT_GIVEN", async () => {
    const response = await self();
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("TOKEN_NOT_GIVEN");
  });

  it("refuses an unknown token with 401 TOKEN_INVALID", async () => {
    const response = await self("c29tZS1yYW5kb20tdG9rZW4tdGhhdC1kb2VzLW5vdC1leGlzdA");
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("TOKEN_INVALID");
  });

  it("answers the session user for the token, from the header or the body", async () => {
    const user = await buildUser(t, { role: 4 });
    const token = await signIn(t.app, user);
    for (const via of ["header", "body"] as const) {
      const response = await self(token, via);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ token, _id: user.id, role: 4 });
    }
  });

  it("answers while the factory password is unchanged", async () => {
    const user = await buildUser(t, { factoryPassword: true });
    const response = await self(await signIn(t.app, user));
    expect(response.statusCode).toBe(200);
    expect(response.json().factory_password).toBe(true);
  });

  it("refuses an expired session with TOKEN_HAS_EXPIRED, then TOKEN_INVALID", async () => {
    const policyId = await buildPolicy(t, null, { inactivity_minutes: 0 });
    const user = await buildUser(t, { policyId });
    const token = await signIn(t.app, user);
    t.clock.advanceMinutes(t.config.sessionTtlHours * 60 - 1);
    expect((await self(token)).statusCode).toBe(200);
    t.clock.advanceMinutes(2);
    const expired = await self(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe("TOKEN_HAS_EXPIRED");
    expect((await self(token)).json().code).toBe("TOKEN_INVALID");
  });

  it("ends a session idle longer than the policy's inactivity minutes", async () => {
    const user = await buildUser(t);
    const token = await signIn(t.app, user);
    t.clock.advanceMinutes(30);
    expect((await self(token)).statusCode).toBe(200);
    // Activity at minute 30 moved the idle window: minute 70 is only 40 minutes idle.
    t.clock.advanceMinutes(40);
    expect((await self(token)).statusCode).toBe(200);
    t.clock.advanceMinutes(61);
    const idle = await self(token);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().code).toBe("INACTIVITY_TIMEOUT");
    const row = await t.db
      .selectFrom("sessions")
      .select(["ended_at", "end_reason"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.end_reason).toBe("inactivity");
    expect(row.ended_at).not.toBeNull();
  });

  it("refuses a session whose user was blocked meanwhile with USER_BLOCKED", async () => {
    const user = await buildUser(t);
    const token = await signIn(t.app, user);
    await t.db.updateTable("users").set({ blocked: true }).where("id", "=", user.id).execute();
    const response = await self(token);
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("USER_BLOCKED");
  });

  it("refuses a session whose password expired meanwhile with PASSWORD_EXPIRED", async () => {
    const user = await buildUser(t, { passwordExpireDate: new Date(t.clock.now().getTime() + 10 * 60_000) });
    const token = await signIn(t.app, user);
    t.clock.advanceMinutes(11);
    const response = await self(token);
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("PASSWORD_EXPIRED");
  });
});

describe("POST /api/logout/", () => {
  it("refuses an anonymous call with 401 TOKEN_NOT_GIVEN", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/logout/" });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("TOKEN_NOT_GIVEN");
  });

  it("ends the session; the token is refused afterwards", async () => {
    const user = await buildUser(t);
    const token = await signIn(t.app, user);
    const response = await t.app.inject({ method: "POST", url: "/api/logout/", payload: { token } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const after = await self(token);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe("TOKEN_INVALID");
    const row = await t.db
      .selectFrom("sessions")
      .select("end_reason")
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.end_reason).toBe("logout");
  });

  it("ends only the caller's session", async () => {
    const user = await buildUser(t);
    const first = await signIn(t.app, user);
    const second = await signIn(t.app, user);
    await t.app.inject({ method: "POST", url: "/api/logout/", headers: { token: first } });
    expect((await self(second)).statusCode).toBe(200);
  });

  it("lets the demo user sign out (logout saves nothing of the demo)", async () => {
    const token = await signInDemo(t.app);
    const response = await t.app.inject({ method: "POST", url: "/api/logout", headers: { token } });
    expect(response.statusCode).toBe(200);
  });
});

describe("login rate limit", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ config: { loginRateLimit: 3 } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it("answers 429 USER_TEMPORARILY_BLOCKED after LOGIN_RATE_LIMIT attempts a minute from one IP", async () => {
    const attempt = () =>
      limited.app.inject({ method: "POST", url: "/api/login/", payload: { username: "x", password: "y" } });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: "USER_TEMPORARILY_BLOCKED",
      message: expect.stringMatching(/\S/),
    });
    const other = await limited.app.inject({ method: "GET", url: "/api/health" });
    expect(other.statusCode).toBe(200);
  });
});
