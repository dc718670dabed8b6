import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildPolicy, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { enrolTotp, passwordStep, secondStep, totpCode } from "../second-factor/second-factor.test-support";

// Issue 30, ADR 039: the second step of signing in, under the sign-in abuse rules of ADR 016.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A person with an authenticator app, under a policy of their own domain. */
async function enrolledPerson(policy: Parameters<typeof buildPolicy>[2] = {}) {
  const domain = await buildDomain(t);
  const policyId = await buildPolicy(t, domain.id, policy);
  const user = await buildUser(t, { role: 2, domainId: domain.id, policyId });
  const { secret, codes } = await enrolTotp(t, await signIn(t.app, user));
  // The enrolment took this period's code.
  t.clock.advance(30_000);
  return { user, secret, codes };
}

async function challengeOf(user: Awaited<ReturnType<typeof enrolledPerson>>["user"], cookie?: string) {
  const step = await passwordStep(t, user, cookie);
  expect(step.status, JSON.stringify(step.body)).toBe(200);
  expect(step.body.token).toBeUndefined();
  return step.body.second_factor?.challenge_token as string;
}

describe("signing in with a second factor", () => {
  it("asks for the second step after the right password, then opens the session on a right code", async () => {
    const { user, secret } = await enrolledPerson();
    const step = await passwordStep(t, user);
    expect(step.body.second_factor).toMatchObject({ methods: ["totp", "recovery"], remember_days: 30 });
    // No session and no device cookie before the second step.
    expect(step.cookie).toBeUndefined();
    const challenge = step.body.second_factor?.challenge_token as string;
    const wrong = await secondStep(t, { challenge_token: challenge, totp: await totpCode(t, secret, 20) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("SECOND_FACTOR_INVALID");
    const right = await secondStep(t, { challenge_token: challenge, totp: await totpCode(t, secret) });
    expect(right.status).toBe(200);
    expect(right.body.token).toBeTypeOf("string");
    expect(right.cookie).toMatch(/^cf_dev_/);
    // The challenge signs in once.
    const again = await secondStep(t, { challenge_token: challenge, totp: await totpCode(t, secret) });
    expect(again.body.code).toBe("SECOND_FACTOR_EXPIRED");
  });

  it("refuses a code already taken (replay), and takes the next period's", async () => {
    const { user, secret } = await enrolledPerson();
    const code = await totpCode(t, secret);
    expect((await secondStep(t, { challenge_token: await challengeOf(user), totp: code })).status).toBe(200);
    const replay = await secondStep(t, { challenge_token: await challengeOf(user), totp: code });
    expect(replay.body.code).toBe("SECOND_FACTOR_INVALID");
    t.clock.advance(30_000);
    const next = await secondStep(t, {
      challenge_token: await challengeOf(user),
      totp: await totpCode(t, secret),
    });
    expect(next.status).toBe(200);
  });

  it("takes each recovery code once", async () => {
    const { user, codes } = await enrolledPerson();
    const code = (codes[0] as string).toUpperCase();
    expect(
      (await secondStep(t, { challenge_token: await challengeOf(user), recovery_code: code })).status,
    ).toBe(200);
    const reused = await secondStep(t, { challenge_token: await challengeOf(user), recovery_code: code });
    expect(reused.body.code).toBe("SECOND_FACTOR_INVALID");
    const other = await secondStep(t, {
      challenge_token: await challengeOf(user),
      recovery_code: codes[1] as string,
    });
    expect(other.status).toBe(200);
    const step = await passwordStep(t, user);
    expect(step.body.second_factor).toBeDefined();
  });

  it("ends the challenge after five wrong codes and after five minutes", async () => {
    const { user, secret } = await enrolledPerson({ attempts_before_temporary_block: 0 });
    const challenge = await challengeOf(user);
    for (let i = 1; i <= 5; i++) {
      const answer = await secondStep(t, {
        challenge_token: challenge,
        totp: await totpCode(t, secret, 10 + i),
      });
      expect(answer.body.code).toBe("SECOND_FACTOR_INVALID");
    }
    const after = await secondStep(t, { challenge_token: challenge, totp: await totpCode(t, secret) });
    expect(after.body.code).toBe("SECOND_FACTOR_EXPIRED");

    const late = await challengeOf(user);
    t.clock.advanceMinutes(6);
    const tooLate = await secondStep(t, { challenge_token: late, totp: await totpCode(t, secret) });
    expect(tooLate.status).toBe(401);
    expect(tooLate.body.code).toBe("SECOND_FACTOR_EXPIRED");
  });

  it("counts wrong codes in the sign-in pool: the policy's temporary block holds the second step too", async () => {
    const { user, secret } = await enrolledPerson({
      attempts_before_temporary_block: 3,
      temporary_block_minutes: 10,
    });
    const challenge = await challengeOf(user);
    for (let i = 1; i <= 2; i++) {
      const answer = await secondStep(t, {
        challenge_token: challenge,
        totp: await totpCode(t, secret, 10 + i),
      });
      expect(answer.body.code).toBe("SECOND_FACTOR_INVALID");
    }
    const third = await secondStep(t, { challenge_token: challenge, totp: await totpCode(t, secret, 13) });
    expect(third.body.code).toBe("USER_TEMPORARILY_BLOCKED");
    // The right code waits for the block, as the right password does.
    const right = await secondStep(t, { challenge_token: challenge, totp: await totpCode(t, secret) });
    expect(right.body.code).toBe("USER_TEMPORARILY_BLOCKED");
    expect((await passwordStep(t, user)).body.code).toBe("USER_TEMPORARILY_BLOCKED");
    t.clock.advanceMinutes(11);
    const fresh = await challengeOf(user);
    expect((await secondStep(t, { challenge_token: fresh, totp: await totpCode(t, secret) })).status).toBe(
      200,
    );
  });

  it("counts a known browser's wrong codes on its own cookie, so strangers' codes never hold it", async () => {
    const { user, secret } = await enrolledPerson({
      attempts_before_temporary_block: 2,
      temporary_block_minutes: 10,
    });
    const first = await secondStep(t, {
      challenge_token: await challengeOf(user),
      totp: await totpCode(t, secret),
    });
    const cookie = first.cookie as string;
    const stranger = await challengeOf(user);
    await secondStep(t, { challenge_token: stranger, totp: await totpCode(t, secret, 11) });
    const held = await secondStep(t, { challenge_token: stranger, totp: await totpCode(t, secret, 12) });
    expect(held.body.code).toBe("USER_TEMPORARILY_BLOCKED");
    t.clock.advance(30_000);
    const owner = await challengeOf(user, cookie);
    const ok = await secondStep(t, { challenge_token: owner, totp: await totpCode(t, secret) }, cookie);
    expect(ok.status).toBe(200);
  });

  it("remembers a browser for the policy's days when asked, and only that browser", async () => {
    const { user, secret } = await enrolledPerson({ second_factor_remember_days: 7 });
    const first = await secondStep(t, {
      challenge_token: await challengeOf(user),
      totp: await totpCode(t, secret),
      remember_browser: true,
    });
    const cookie = first.cookie as string;
    expect((await passwordStep(t, user, cookie)).body.token).toBeTypeOf("string");
    expect((await passwordStep(t, user)).body.second_factor).toBeDefined();
    t.clock.advanceMinutes(8 * 24 * 60);
    expect((await passwordStep(t, user, cookie)).body.second_factor).toBeDefined();
  });

  it("never remembers a browser under a policy of 0 days", async () => {
    const { user, secret } = await enrolledPerson({ second_factor_remember_days: 0 });
    const first = await secondStep(t, {
      challenge_token: await challengeOf(user),
      totp: await totpCode(t, secret),
      remember_browser: true,
    });
    expect((await passwordStep(t, user, first.cookie)).body.second_factor).toBeDefined();
  });

  it("answers a wrong password as before: the second step tells nothing of unknown names", async () => {
    const { user } = await enrolledPerson();
    const wrong = await passwordStep(t, { ...user, password: "not-it" });
    expect(wrong.body.code).toBe("WRONG_LOGIN_OR_PASSWORD");
    expect(wrong.body.second_factor).toBeUndefined();
  });
});
