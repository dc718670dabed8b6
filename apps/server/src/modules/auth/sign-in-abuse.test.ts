import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuiltUser,
  buildDomain,
  buildPolicy,
  buildUser,
  signIn,
  uniqueName,
} from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 11 (OWASP ASVS 2.2, ADR 016): a stranger who knows a username could keep its owner out;
// the lockout told which usernames exist.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function login(username: string, password: string, cookie?: string) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/login/",
    payload: { username, password },
    ...(cookie ? { headers: { cookie } } : {}),
  });
  return { status: response.statusCode, code: response.json().code as string | undefined, response };
}

/** Signs in from a fresh browser and answers the device cookie it is given (`name=value`). */
async function ownersBrowser(user: BuiltUser): Promise<string> {
  const { status, response } = await login(user.username, user.password);
  expect(status).toBe(200);
  const header = String(response.headers["set-cookie"]);
  expect(header).toMatch(/^cf_dev_[0-9a-f]{16}=[A-Za-z0-9_-]+; /);
  return header.split(";")[0] as string;
}

async function userWithPolicy(policy: Record<string, number>): Promise<BuiltUser> {
  const domain = await buildDomain(t);
  const policyId = await buildPolicy(t, domain.id, policy);
  return buildUser(t, { role: 2, domainId: domain.id, policyId });
}

describe("sign-in abuse", () => {
  it("gives a browser that signed in a device cookie only the sign-in path reads", async () => {
    const user = await buildUser(t, { role: 3 });
    const { response } = await login(user.username, user.password);
    const header = String(response.headers["set-cookie"]);
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Strict");
    expect(header).toContain("Path=/api/login");
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("keeps the owner's browser in while a stranger's guesses block strangers (default policy)", async () => {
    const owner = await buildUser(t, { role: 2 });
    const cookie = await ownersBrowser(owner);
    for (let i = 1; i <= 4; i++)
      expect((await login(owner.username, `guess-${i}`)).code).toBe("WRONG_LOGIN_OR_PASSWORD");
    expect((await login(owner.username, "guess-5")).code).toBe("USER_TEMPORARILY_BLOCKED");
    // The stranger is on hold, even with the right password…
    expect((await login(owner.username, owner.password)).code).toBe("USER_TEMPORARILY_BLOCKED");
    // …the owner's browser is not.
    expect((await login(owner.username, owner.password, cookie)).status).toBe(200);
  });

  it("keeps the owner in under a policy that blocks for good, and ends none of the owner's sessions", async () => {
    const owner = await userWithPolicy({
      attempts_before_temporary_block: 0,
      attempts_before_permanent_block: 3,
    });
    const cookie = await ownersBrowser(owner);
    const sessionsBefore = await t.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", owner.id)
      .execute();
    await login(owner.username, "g1");
    await login(owner.username, "g2");
    expect((await login(owner.username, "g3")).code).toBe("USER_BLOCKED");
    expect((await login(owner.username, owner.password)).code).toBe("USER_BLOCKED");
    expect((await login(owner.username, owner.password, cookie)).status).toBe(200);
    const sessionsAfter = await t.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", owner.id)
      .execute();
    expect(sessionsAfter.length).toBe(sessionsBefore.length + 1);
  });

  it("counts a known browser's own failures on their own, by the policy's counts", async () => {
    const owner = await buildUser(t, { role: 2 });
    const cookie = await ownersBrowser(owner);
    for (let i = 1; i <= 4; i++) await login(owner.username, `typo-${i}`, cookie);
    expect((await login(owner.username, "typo-5", cookie)).code).toBe("USER_TEMPORARILY_BLOCKED");
    expect((await login(owner.username, owner.password, cookie)).code).toBe("USER_TEMPORARILY_BLOCKED");
    // Another browser of the owner (a fresh one) is not held by this one's typos.
    expect((await login(owner.username, owner.password)).status).toBe(200);
    t.clock.advanceMinutes(16);
    expect((await login(owner.username, owner.password, cookie)).status).toBe(200);
  });

  it("takes no other user's cookie as trusted", async () => {
    const owner = await buildUser(t, { role: 2 });
    const other = await buildUser(t, { role: 2 });
    const cookie = await ownersBrowser(owner);
    const forged = cookie.replace(/^cf_dev_[0-9a-f]+/, (await ownersBrowser(other)).split("=")[0] as string);
    for (let i = 1; i <= 5; i++) await login(other.username, `guess-${i}`);
    expect((await login(other.username, other.password, forged)).code).toBe("USER_TEMPORARILY_BLOCKED");
  });

  it("answers a lockout alike for a username nobody has", async () => {
    const known = await buildUser(t, { role: 3 });
    const unknown = uniqueName("nobody");
    const answers = async (username: string) => {
      const seen: string[] = [];
      for (let i = 1; i <= 6; i++) {
        const answer = await login(username, `guess-${i}`);
        seen.push(`${answer.status}:${answer.code}`);
      }
      return seen;
    };
    const forKnown = await answers(known.username);
    const forUnknown = await answers(unknown);
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown).toContain("403:USER_TEMPORARILY_BLOCKED");
    const knownText = (await login(known.username, "x")).response.json().message as string;
    const unknownText = (await login(unknown, "x")).response.json().message as string;
    expect(unknownText.replace(/\d.*$/, "")).toBe(knownText.replace(/\d.*$/, ""));
  });

  it("lifts a browser's own block when an administrator unblocks the user", async () => {
    const domain = await buildDomain(t);
    const policyId = await buildPolicy(t, domain.id, {
      attempts_before_temporary_block: 0,
      attempts_before_permanent_block: 2,
    });
    const owner = await buildUser(t, { role: 3, domainId: domain.id, policyId });
    const admin = await signIn(t.app, await buildUser(t, { role: 2, domainId: domain.id }));
    const cookie = await ownersBrowser(owner);
    await login(owner.username, "typo-1", cookie);
    expect((await login(owner.username, "typo-2", cookie)).code).toBe("USER_BLOCKED");
    expect((await login(owner.username, owner.password, cookie)).code).toBe("USER_BLOCKED");
    const unblocked = await t.app.inject({
      method: "POST",
      url: `/api/user/${owner.id}`,
      headers: { token: admin },
      payload: { blocked: false },
    });
    expect(unblocked.statusCode, unblocked.body).toBe(200);
    expect((await login(owner.username, owner.password, cookie)).status).toBe(200);
  });
});
