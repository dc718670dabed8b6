import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildDomain, buildPolicy, buildUser, signIn } from "../../test/factories";
import { catcherSmtp, type MailCatcher, mailText, startMailCatcher } from "../../test/mail-catcher";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let mail: MailCatcher;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  mail = await startMailCatcher();
  t = await createTestApp({
    config: {
      smtp: catcherSmtp(mail),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const login = (username: string, password: string) =>
  callApi(t.app, "POST", "/api/login/", undefined, { username, password });

describe("sign-in blocks by the policy", () => {
  it("blocks for M minutes after N wrong passwords, then lets the right one in", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, {
      attempts_before_temporary_block: 3,
      temporary_block_minutes: 10,
    });
    const user = await buildUser(t, { role: 4, domainId: domain.id, policyId });
    expect((await login(user.username, "wrong-1")).body.code).toBe("WRONG_LOGIN_OR_PASSWORD");
    expect((await login(user.username, "wrong-2")).body.code).toBe("WRONG_LOGIN_OR_PASSWORD");
    const third = await login(user.username, "wrong-3");
    expect(third.status).toBe(403);
    expect(third.body.code).toBe("USER_TEMPORARILY_BLOCKED");
    // Even the right password waits out the block.
    expect((await login(user.username, user.password)).body.code).toBe("USER_TEMPORARILY_BLOCKED");
    t.clock.advanceMinutes(9);
    expect((await login(user.username, user.password)).body.code).toBe("USER_TEMPORARILY_BLOCKED");
    t.clock.advanceMinutes(2);
    expect((await login(user.username, user.password)).status).toBe(200);
    // A success starts the count again and ends the temporary block (signedInColumns).
    const afterSuccess = await t.db
      .selectFrom("users")
      .select(["failed_attempts", "blocked_until"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(afterSuccess).toEqual({ failed_attempts: 0, blocked_until: null });
    expect((await login(user.username, "wrong-4")).body.code).toBe("WRONG_LOGIN_OR_PASSWORD");
  });

  it("blocks for good after the permanent-block count, until an admin unblocks", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, {
      attempts_before_temporary_block: 2,
      temporary_block_minutes: 1,
      attempts_before_permanent_block: 4,
    });
    const user = await buildUser(t, { role: 4, domainId: domain.id, policyId });
    const admin = await buildUser(t, { role: 2, domainId: domain.id });
    await login(user.username, "x1");
    expect((await login(user.username, "x2")).body.code).toBe("USER_TEMPORARILY_BLOCKED");
    t.clock.advanceMinutes(2);
    await login(user.username, "x3");
    expect((await login(user.username, "x4")).body.code).toBe("USER_BLOCKED");
    t.clock.advanceMinutes(60);
    expect((await login(user.username, user.password)).body.code).toBe("USER_BLOCKED");
    const adminToken = await signIn(t.app, admin);
    const unblocked = await callApi(t.app, "POST", `/api/user/${user.id}`, adminToken, { blocked: false });
    expect(unblocked.body.blocked).toBe(false);
    expect((await login(user.username, user.password)).status).toBe(200);
  });

  it("blocks a user who has not signed in for the policy's days", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, { block_without_auth_days: 30 });
    const user = await buildUser(t, { role: 4, domainId: domain.id, policyId });
    expect((await login(user.username, user.password)).status).toBe(200);
    t.clock.advance(29 * DAY_MS);
    expect((await login(user.username, user.password)).status).toBe(200);
    t.clock.advance(31 * DAY_MS);
    expect((await login(user.username, user.password)).body.code).toBe("USER_BLOCKED");
  });
});

describe("password expiry strategies", () => {
  it("'block' answers PASSWORD_EXPIRED until an admin sets a new password", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, { expiration_days: 30, expiration_strategy: "block" });
    const user = await buildUser(t, {
      role: 4,
      domainId: domain.id,
      policyId,
      passwordExpireDate: new Date(t.clock.now().getTime() - 1000),
    });
    const first = await login(user.username, user.password);
    expect(first.status).toBe(403);
    expect(first.body.code).toBe("PASSWORD_EXPIRED");
    expect((await login(user.username, user.password)).body.code).toBe("PASSWORD_EXPIRED");
    const admin = await buildUser(t, { role: 2, domainId: domain.id });
    const token = await signIn(t.app, admin);
    const reset = await callApi(t.app, "POST", `/api/user/${user.id}`, token, { password: "Fresh-pass-42" });
    expect(reset.status, reset.text).toBe(200);
    const after = await login(user.username, "Fresh-pass-42");
    expect(after.status, after.text).toBe(200);
    expect(after.body.factory_password).toBe(true);
    expect(after.body.password_expire_date).toBeGreaterThan(t.clock.now().getTime());
  });

  it("'send_new_password' e-mails a new password and answers PASSWORD_RESET", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, {
      expiration_days: 30,
      expiration_strategy: "send_new_password",
    });
    const user = await buildUser(t, {
      role: 4,
      domainId: domain.id,
      policyId,
      passwordExpireDate: new Date(t.clock.now().getTime() - 1000),
    });
    await t.db
      .updateTable("users")
      .set({ email: "expired.user@example.com" })
      .where("id", "=", user.id)
      .execute();
    const answer = await login(user.username, user.password);
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe("PASSWORD_RESET");
    const text = mailText(await mail.waitFor("expired.user@example.com"));
    const password = /new password: (\S+)/.exec(text)?.[1];
    expect(password).toBeTruthy();
    expect((await login(user.username, user.password)).body.code).toBe("WRONG_LOGIN_OR_PASSWORD");
    const fresh = await login(user.username, password ?? "");
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.factory_password).toBe(true);
  });

  it("'send_new_password' without an e-mail answers USER_RESET_AND_BLOCKED", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, {
      expiration_days: 30,
      expiration_strategy: "send_new_password",
    });
    const user = await buildUser(t, {
      role: 4,
      domainId: domain.id,
      policyId,
      passwordExpireDate: new Date(t.clock.now().getTime() - 1000),
    });
    expect((await login(user.username, user.password)).body.code).toBe("USER_RESET_AND_BLOCKED");
  });
});

describe("password history and re-authentication", () => {
  it("refuses a password used a few times ago", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, { password_history: 3 });
    const user = await buildUser(t, { role: 3, domainId: domain.id, policyId, password: "Original-pass-1" });
    const token = await signIn(t.app, user);
    const change = (next: string) =>
      callApi(t.app, "POST", `/api/user/${user.id}`, token, { password: next });
    expect((await change("Second-pass-2")).status).toBe(200);
    t.clock.advanceMinutes(6);
    const back = await change("Original-pass-1");
    expect(back.status).toBe(400);
    expect(back.body.code).toBe("PASSWORD_INVALID_USED_FEW_TIMES_AGO");
    const soon = await change("Third-pass-3");
    expect(soon.status).toBe(200);
    const tooSoon = await change("Fourth-pass-4");
    expect(tooSoon.body.code).toBe("PASSWORD_CHANGE_NOT_ALLOWED_5_MINUTES");
  });

  it("answers REAUTH to accounting saves long after sign-in when the policy asks for it", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, { reauthentication: true, inactivity_minutes: 0 });
    await t.db.updateTable("domains").set({ policy_id: policyId }).where("id", "=", domain.id).execute();
    const admin = await buildUser(t, { role: 2, domainId: domain.id });
    const operator = await buildUser(t, { role: 4, domainId: domain.id });
    const token = await signIn(t.app, admin);
    expect((await callApi(t.app, "POST", `/api/user/${operator.id}`, token, { full_name: "A" })).status).toBe(
      200,
    );
    t.clock.advanceMinutes(16);
    const late = await callApi(t.app, "POST", `/api/user/${operator.id}`, token, { full_name: "B" });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe("REAUTH");
    // Reading needs no re-authentication.
    expect((await callApi(t.app, "POST", `/api/user/${operator.id}`, token, {})).status).toBe(200);
  });
});
