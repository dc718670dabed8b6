import { ProfileSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPolicy, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function profile(token: string | undefined, payload?: object) {
  return t.app.inject({
    method: "POST",
    url: "/api/profile",
    ...(token === undefined ? {} : { headers: { token } }),
    ...(payload === undefined ? {} : { payload }),
  });
}

function changePassword(token: string, current: string, next: string, confirm = next) {
  return profile(token, { password: { current, new: next, confirm } });
}

async function canSignIn(username: string, password: string): Promise<boolean> {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/login/",
    payload: { username, password },
  });
  return response.statusCode === 200;
}

describe("POST /api/profile: access", () => {
  it("refuses an anonymous call with 401 TOKEN_NOT_GIVEN", async () => {
    const response = await profile(undefined, {});
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("TOKEN_NOT_GIVEN");
  });

  it("refuses an unknown token with 401 TOKEN_INVALID", async () => {
    const response = await profile("no-such-token", {});
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("TOKEN_INVALID");
  });

  it("refuses a body that fails the schema with 400 BAD_REQUEST", async () => {
    const user = await buildUser(t);
    const response = await profile(await signIn(t.app, user), { phone: "1".repeat(25) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "BAD_REQUEST", message: expect.stringContaining("phone") });
  });

  it("lets the demo user read but refuses a demo save with 403 DEMO_PERMISSIONS_DENIED", async () => {
    const token = await signInDemo(t.app);
    const read = await profile(token, { token });
    expect(read.statusCode).toBe(200);
    expect(read.json().username).toBe("demo");
    const save = await profile(token, { full_name: "Hacked" });
    expect(save.statusCode).toBe(403);
    expect(save.json().code).toBe("DEMO_PERMISSIONS_DENIED");
    expect((await profile(token)).json().full_name).toBe("Demo");
  });
});

describe("POST /api/profile: reading and changing fields", () => {
  it("reads the own profile when the body has no fields", async () => {
    const user = await buildUser(t, { role: 3, fullName: "Anna" });
    const token = await signIn(t.app, user);
    for (const response of [await profile(token), await profile(undefined, { token })]) {
      expect(response.statusCode).toBe(200);
      const body = ProfileSchema.parse(response.json());
      expect(body).toMatchObject({ _id: user.id, username: user.username, full_name: "Anna", role: 3 });
      expect(body.last_login).toBe(t.clock.now().getTime());
    }
  });

  it("changes the name, email and phone and answers the updated profile", async () => {
    const user = await buildUser(t);
    const token = await signIn(t.app, user);
    const response = await profile(token, {
      full_name: " Boris ",
      email: "boris@example.com",
      phone: "+7 (900) 1-2-3",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      full_name: "Boris",
      email: "boris@example.com",
      phone: "+7 (900) 1-2-3",
    });
    const row = await t.db
      .selectFrom("users")
      .select(["full_name", "email"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ full_name: "Boris", email: "boris@example.com" });
    const cleared = await profile(token, { email: "" });
    expect(cleared.json().email).toBeNull();
  });

  it("refuses an email without an @ with 400 BAD_REQUEST", async () => {
    const user = await buildUser(t);
    const response = await profile(await signIn(t.app, user), { email: "not-an-email" });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("BAD_REQUEST");
  });
});

describe("POST /api/profile: changing the password", () => {
  it("refuses a confirmation that differs with 400 PASSWORD_INVALID 'Passwords do not match!'", async () => {
    const user = await buildUser(t);
    const response = await changePassword(
      await signIn(t.app, user),
      user.password,
      "Brand-new-1",
      "Brand-new-2",
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "PASSWORD_INVALID", message: "Passwords do not match!" });
  });

  it("refuses a wrong current password with a 400, not a 401, and keeps the session", async () => {
    const user = await buildUser(t);
    const token = await signIn(t.app, user);
    const response = await changePassword(token, "wrong-current", "Brand-new-1");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "PASSWORD_INVALID",
      message: expect.stringMatching(/current password/i),
    });
    expect((await profile(token)).statusCode).toBe(200);
    expect(await canSignIn(user.username, user.password)).toBe(true);
  });

  it("answers the policy's PASSWORD_* code for a password the policy refuses", async () => {
    const policyId = await buildPolicy(t, null, { policy_level: 2, password_min_length: 10 });
    const user = await buildUser(t, { role: 4, policyId });
    const token = await signIn(t.app, user);
    const short = await changePassword(token, user.password, "Ab1%");
    expect(short.statusCode).toBe(400);
    expect(short.json().code).toBe("PASSWORD_INVALID_MIN_LENGTH");
    const noDigits = await changePassword(token, user.password, "Abcdefghij%");
    expect(noDigits.json().code).toBe("PASSWORD_INVALID_NO_DIGITS");
    const same = await changePassword(token, user.password, user.password);
    expect(same.json().code).toBe("PASSWORD_INVALID_LIKE_CURRENT");
    const good = await changePassword(token, user.password, "Abcdefgh1%");
    expect(good.statusCode).toBe(200);
  });

  it("follows the domain's policy when the user has none of their own", async () => {
    const user = await buildUser(t, { role: 4 });
    const policyId = await buildPolicy(t, user.domainId, { policy_level: 1 });
    await t.db
      .updateTable("domains")
      .set({ policy_id: policyId })
      .where("id", "=", user.domainId ?? "")
      .execute();
    const response = await changePassword(await signIn(t.app, user), user.password, "lowercase-only-1%");
    expect(response.json().code).toBe("PASSWORD_INVALID_NO_CAPITALS");
  });

  it("stores the new password, clears the factory flag and sets the expiry date", async () => {
    const policyId = await buildPolicy(t, null, { admin_expiration_days: 30, expiration_days: 10 });
    const user = await buildUser(t, {
      role: 2,
      factoryPassword: true,
      passwordChangedAt: t.clock.now(),
      policyId,
    });
    const token = await signIn(t.app, user);
    // The factory password may be changed at once, even though it was set a moment ago.
    const response = await changePassword(token, user.password, "Fresh-password-7");
    expect(response.statusCode).toBe(200);
    expect(response.json().factory_password).toBe(false);
    expect(response.json().password_expire_date).toBe(t.clock.now().getTime() + 30 * 24 * 60 * 60 * 1000);
    expect(await canSignIn(user.username, "Fresh-password-7")).toBe(true);
    expect(await canSignIn(user.username, user.password)).toBe(false);
    const history = await t.db
      .selectFrom("password_history")
      .select("id")
      .where("user_id", "=", user.id)
      .execute();
    expect(history).toHaveLength(2);
  });

  it("refuses a second change within 5 minutes with PASSWORD_CHANGE_NOT_ALLOWED_5_MINUTES", async () => {
    const user = await buildUser(t);
    const token = await signIn(t.app, user);
    expect((await changePassword(token, user.password, "Second-pass-1")).statusCode).toBe(200);
    t.clock.advanceMinutes(4);
    const tooSoon = await changePassword(token, "Second-pass-1", "Third-pass-1");
    expect(tooSoon.statusCode).toBe(400);
    expect(tooSoon.json().code).toBe("PASSWORD_CHANGE_NOT_ALLOWED_5_MINUTES");
    t.clock.advanceMinutes(2);
    expect((await changePassword(token, "Second-pass-1", "Third-pass-1")).statusCode).toBe(200);
  });

  it("refuses a password among the last ones with PASSWORD_INVALID_USED_FEW_TIMES_AGO", async () => {
    const user = await buildUser(t);
    const token = await signIn(t.app, user);
    expect((await changePassword(token, user.password, "Another-pass-1")).statusCode).toBe(200);
    t.clock.advanceMinutes(6);
    const reused = await changePassword(token, "Another-pass-1", user.password);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe("PASSWORD_INVALID_USED_FEW_TIMES_AGO");
  });
});
