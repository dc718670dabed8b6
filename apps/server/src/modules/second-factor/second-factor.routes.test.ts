import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildDomain, buildPolicy, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { enrolTotp, passwordStep, secondStep, totpCode } from "./second-factor.test-support";

// Issue 30: a person enrols an authenticator app (passkeys: the browser test, with Chromium's
// virtual authenticator), a policy holds whoever must and has none on the profile page, and an
// administrator resets a member's factor.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
});
afterAll(async () => {
  await t.close();
});

describe("enrolling an authenticator app", () => {
  it("answers 401 without a session and refuses the demo user's saves", async () => {
    expect((await callApi(t.app, "POST", "/api/profile/second-factor", undefined)).status).toBe(401);
    const demo = await signInDemo(t.app);
    const start = await callApi(t.app, "POST", "/api/profile/second-factor/totp/start", demo);
    expect(start.body.code).toBe("DEMO_PERMISSIONS_DENIED");
  });

  it("keeps the secret sealed, takes a code to confirm it, and answers ten recovery codes once", async () => {
    const user = await buildUser(t, { role: 3 });
    const token = await signIn(t.app, user);
    const start = await callApi(t.app, "POST", "/api/profile/second-factor/totp/start", token);
    expect(start.status).toBe(200);
    const secret = start.body.secret as string;
    expect(start.body.otpauth_url).toContain(`secret=${secret}`);
    expect(start.body.qr_svg).toMatch(/^<svg/);
    const row = await t.db
      .selectFrom("user_totp")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    expect(row?.secret_sealed).not.toContain(secret);
    expect(row?.confirmed_at).toBeNull();

    const wrong = await callApi(t.app, "POST", "/api/profile/second-factor/totp/confirm", token, {
      totp: (await totpCode(t, secret, 10)) as string,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("SECOND_FACTOR_INVALID");
    const bad = await callApi(t.app, "POST", "/api/profile/second-factor/totp/confirm", token, {
      totp: "12ab",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("BAD_REQUEST");

    const confirm = await callApi(t.app, "POST", "/api/profile/second-factor/totp/confirm", token, {
      totp: await totpCode(t, secret),
    });
    expect(confirm.status, confirm.text).toBe(200);
    const codes = confirm.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(confirm.body.status).toMatchObject({ totp: true, recovery_codes_left: 10, passkeys: [] });
    // Stored by hash only.
    const stored = await t.db
      .selectFrom("user_recovery_codes")
      .select("code_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(stored.map((entry) => entry.code_hash)).not.toContain(codes[0]);
    // A second app needs the first removed.
    const again = await callApi(t.app, "POST", "/api/profile/second-factor/totp/start", token);
    expect(again.body.code).toBe("OPERATION_IS_NOT_SUPPORTED");

    const renewed = await callApi(t.app, "POST", "/api/profile/second-factor/recovery-codes", token);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expect(renewed.body.recovery_codes).not.toContain(codes[0]);

    const removed = await callApi(t.app, "DELETE", "/api/profile/second-factor/totp", token);
    expect(removed.body).toMatchObject({ totp: false, recovery_codes_left: 0 });
    expect((await passwordStep(t, user)).body.token).toBeTypeOf("string");
  });
});

describe("the policy's 'second factor required'", () => {
  it("holds an admin without a factor on the profile page until one is enrolled", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, { second_factor_required_for: "admins" });
    const admin = await buildUser(t, { role: 2, domainId: domain.id, policyId });
    const operator = await buildUser(t, { role: 4, domainId: domain.id, policyId });

    const signedIn = await passwordStep(t, admin);
    expect(signedIn.body.second_factor_pending).toBe(true);
    const token = signedIn.body.token as string;
    const held = await callApi(t.app, "POST", "/api/users/", token, {});
    expect(held.status).toBe(403);
    expect(held.body.code).toBe("PERMISSION_DENIED");
    const status = await callApi(t.app, "POST", "/api/profile/second-factor", token);
    expect(status.body.is_required).toBe(true);

    await enrolTotp(t, token);
    const self = await callApi(t.app, "POST", "/api/accounting/self", token);
    expect(self.body.second_factor_pending).toBe(false);
    expect((await callApi(t.app, "POST", "/api/users/", token, {})).status).toBe(200);

    // 'admins' leaves operators free.
    expect((await passwordStep(t, operator)).body.second_factor_pending).toBe(false);
  });

  it("holds everybody under 'everybody'", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, { second_factor_required_for: "everybody" });
    const operator = await buildUser(t, { role: 4, domainId: domain.id, policyId });
    const token = (await passwordStep(t, operator)).body.token as string;
    expect((await callApi(t.app, "POST", "/api/tags/", token)).body.code).toBe("PERMISSION_DENIED");
  });

  it("saves and answers the policy's new fields", async () => {
    const admin = await buildUser(t, { role: 2 });
    const token = await signIn(t.app, admin);
    const policyId = await buildPolicy(t, admin.domainId);
    const saved = await callApi(t.app, "POST", `/api/policy/${policyId}`, token, {
      second_factor_required_for: "everybody",
      second_factor_remember_days: 7,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      second_factor_required_for: "everybody",
      second_factor_remember_days: 7,
    });
    const wrong = await callApi(t.app, "POST", `/api/policy/${policyId}`, token, {
      second_factor_required_for: "some",
    });
    expect(wrong.status).toBe(400);
  });
});

describe("an administrator's reset", () => {
  it("removes the member's factors, is audited, and queues a mail to the member", async () => {
    const domain = await buildDomain(t);
    const admin = await buildUser(t, { role: 2, domainId: domain.id });
    const member = await buildUser(t, { role: 4, domainId: domain.id });
    await t.db
      .updateTable("users")
      .set({ email: "member@example.test" })
      .where("id", "=", member.id)
      .execute();
    await enrolTotp(t, await signIn(t.app, member));
    expect((await passwordStep(t, member)).body.second_factor).toBeDefined();

    const adminToken = await signIn(t.app, admin);
    const reset = await callApi(t.app, "POST", `/api/user/${member.id}/second-factor/reset`, adminToken);
    expect(reset.status, reset.text).toBe(200);
    expect((await passwordStep(t, member)).body.token).toBeTypeOf("string");

    const mails = await t.db.selectFrom("jobs").select(["payload"]).where("kind", "=", "mail.send").execute();
    const texts = mails.map((job) => JSON.stringify(job.payload));
    expect(
      texts.some((text) => text.includes("member@example.test") && text.includes("second factor reset")),
    ).toBe(true);
    await t.app.auditLog.settle();
    const entry = await t.db
      .selectFrom("web_actions")
      .selectAll()
      .where("author_id", "=", admin.id)
      .where("kind", "=", "secondFactor.reset")
      .executeTakeFirst();
    expect(entry?.status).toBe("SUCCESS");
  });

  it("refuses assistants (403) and another domain's member (404)", async () => {
    const domain = await buildDomain(t);
    const assistant = await buildUser(t, { role: 3, domainId: domain.id });
    const member = await buildUser(t, { role: 4, domainId: domain.id });
    const stranger = await buildUser(t, { role: 2 });
    const byAssistant = await callApi(
      t.app,
      "POST",
      `/api/user/${member.id}/second-factor/reset`,
      await signIn(t.app, assistant),
    );
    expect(byAssistant.status).toBe(403);
    const byStranger = await callApi(
      t.app,
      "POST",
      `/api/user/${member.id}/second-factor/reset`,
      await signIn(t.app, stranger),
    );
    expect(byStranger.status).toBe(404);
    expect(byStranger.body.code).toBe("USER_NOT_FOUND");
  });
});

describe("the second step's answers", () => {
  it("answers SECOND_FACTOR_EXPIRED for an unknown challenge", async () => {
    const answer = await secondStep(t, { challenge_token: "nope", totp: "123456" });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe("SECOND_FACTOR_EXPIRED");
  });
});
