import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildDomain, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { accountingRouteCases, type MatrixEnv, SECRET } from "./accounting.roles.cases";

// The role matrix of spec sections 2 and 6: every accounting route called by every role, and the
// audit entry each call leaves (exactly one for a save, none for a read).

type Caller = "anonymous" | "superuser" | "admin" | "helper" | "junior" | "operator" | "demo";
const CALLERS: Caller[] = ["anonymous", "superuser", "admin", "helper", "junior", "operator", "demo"];
const ROLE_OF: Record<Exclude<Caller, "anonymous">, number> = {
  superuser: 1,
  admin: 2,
  helper: 3,
  junior: 3,
  operator: 4,
  demo: 2,
};

let t: TestApp;
const tokens = new Map<Caller, string | undefined>();
const domainOf = new Map<Caller, string | null>();
let homeDomain: string;
const env = {} as MatrixEnv;
const ROUTES = accountingRouteCases(env);

beforeAll(async () => {
  t = await createTestApp();
  homeDomain = (await buildDomain(t)).id;
  env.t = t;
  env.homeDomain = homeDomain;
  const users = {
    superuser: await buildUser(t, { role: 1 }),
    admin: await buildUser(t, { role: 2, domainId: homeDomain }),
    helper: await buildUser(t, { role: 3, domainId: homeDomain }),
    junior: await buildUser(t, { role: 3, domainId: homeDomain, isJunior: true }),
    operator: await buildUser(t, { role: 4, domainId: homeDomain }),
  };
  tokens.set("anonymous", undefined);
  for (const [caller, user] of Object.entries(users)) {
    tokens.set(caller as Caller, await signIn(t.app, user));
    domainOf.set(caller as Caller, user.domainId);
  }
  tokens.set("demo", await signInDemo(t.app));
  const demo = await t.db
    .selectFrom("users")
    .select("domain_id")
    .where("is_demo", "=", true)
    .executeTakeFirstOrThrow();
  domainOf.set("demo", demo.domain_id);
});
afterAll(async () => {
  await t.close();
});

async function countEntries(): Promise<number> {
  await t.app.auditLog.settle();
  const row = await t.db
    .selectFrom("web_actions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(ROUTES)("$method $name", (route) => {
  it.each(CALLERS)("as %s", async (caller) => {
    const { url, payload } = await route.prepare(domainOf.get(caller) ?? null);
    const before = await countEntries();
    const answer = await callApi(t.app, route.method, url, tokens.get(caller), payload);
    const after = await countEntries();
    if (caller === "anonymous") {
      expect(answer.status).toBe(401);
      expect(after - before).toBe(0);
      return;
    }
    const role = ROLE_OF[caller];
    if (!route.roles.includes(role)) {
      expect(answer.status, answer.text).toBe(403);
    } else if (caller === "demo" && route.saves) {
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("DEMO_PERMISSIONS_DENIED");
    } else {
      expect(answer.status, answer.text).toBeLessThan(300);
    }
    // A save leaves exactly one entry, allowed or not; a read leaves none.
    expect(after - before).toBe(route.saves ? 1 : 0);
    if (route.saves) {
      const entry = await t.db
        .selectFrom("web_actions")
        .selectAll()
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirstOrThrow();
      expect(entry.status).toBe(answer.status < 400 ? "SUCCESS" : "FAILURE");
      expect(entry.action).toBe(`${route.method}_${url.split("/")[2]}`);
      expect(JSON.stringify(entry.info)).not.toContain(SECRET);
    }
  });
});
