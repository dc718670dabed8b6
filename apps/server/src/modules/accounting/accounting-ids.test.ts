import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildDomain, buildUser, signIn, uniqueName } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 11: `policy_id: ""` answered 500 (a foreign key). Every id field, empty, malformed or
// unknown, answers 400 with its code, and nothing is saved.
let t: TestApp;
let rootToken: string;
let domainId: string;
let adminId: string;
let superId: string;
let userId: string;

beforeAll(async () => {
  t = await createTestApp();
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  domainId = (await buildDomain(t)).id;
  adminId = (await buildUser(t, { role: 2, domainId })).id;
  superId = (await buildUser(t, { role: 1 })).id;
  userId = (await buildUser(t, { role: 3, domainId })).id;
});
afterAll(async () => {
  await t.close();
});

const password = "Str0ng-Passw0rd!";
const person = () => ({
  username: uniqueName("u").slice(0, 20),
  full_name: "Some One",
  email: "",
  phone: "",
});

const cases: [string, string, () => object][] = [
  ["creating a user", "/api/user/new", () => ({ ...person(), role: 3, domain_id: domainId, password })],
  ["changing a user", `/api/user/:user`, () => ({})],
  ["creating a superuser", "/api/superuser/new", () => ({ ...person(), password })],
  ["changing a superuser", "/api/superuser/:super", () => ({})],
  ["creating a domain admin", "/api/domain/:domain/admins/new", () => ({ ...person(), password })],
  ["changing a domain admin", "/api/domain/:domain/admins/:admin", () => ({})],
  [
    "creating a domain",
    "/api/domains/new",
    () => ({ name: uniqueName("d"), full_name: "Company", tin: "123456789", device_limit: null }),
  ],
  ["changing a domain", "/api/domain/:domain", () => ({})],
];

function urlOf(template: string): string {
  return template
    .replace(":user", userId)
    .replace(":super", superId)
    .replace(":domain", domainId)
    .replace(":admin", adminId);
}

describe("id fields on accounting bodies", () => {
  it.each(
    cases.flatMap(([what, url, body]) =>
      ["", "../etc", "no-such-policy"].map(
        (policyId) => [what, JSON.stringify(policyId), url, body, policyId] as const,
      ),
    ),
  )(
    "%s with policy_id %s answers 400 BAD_REQUEST and saves nothing",
    async (_what, _shown, url, body, policyId) => {
      const users = await t.db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst();
      const answer = await callApi(t.app, "POST", urlOf(url), rootToken, { ...body(), policy_id: policyId });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body).toEqual({ code: "BAD_REQUEST", message: expect.stringContaining("policy_id") });
      const after = await t.db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst();
      expect(Number(after?.n)).toBe(Number(users?.n));
      const stillNull = await t.db
        .selectFrom("users")
        .select("policy_id")
        .where("policy_id", "=", policyId)
        .execute();
      expect(stillNull).toEqual([]);
    },
  );
});
