import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";
import { runFirstStart } from "./first-start";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

function login(payload: object) {
  return t.app.inject({ method: "POST", url: "/api/login/", payload });
}

describe("first start", () => {
  it("creates the default policy, root with a factory password, and the demo domain and user", async () => {
    const warnings: string[] = [];
    const result = await runFirstStart(t.db, {
      rootPassword: "Env-root-password-1",
      now: t.clock.now,
      log: { warn: (message) => warnings.push(message) },
    });
    expect(result).toMatchObject({ isRootCreated: true, isDemoCreated: true });
    expect(result.generatedRootPassword).toBeUndefined();
    expect(warnings).toEqual([]);

    const policies = await t.db.selectFrom("security_policies").selectAll().execute();
    expect(policies).toHaveLength(1);
    expect(policies[0]).toMatchObject({ is_default: true, domain_id: null, name: "default" });

    const root = await t.db
      .selectFrom("users")
      .selectAll()
      .where("username", "=", "root")
      .executeTakeFirstOrThrow();
    expect(root).toMatchObject({ role: 1, domain_id: null, full_name: "Root", factory_password: true });
    expect(root.plugins).toEqual(["notification", "accounting", "keychain"]);
    expect(root.password_hash).toMatch(/^\$argon2id\$/);

    const demo = await t.db
      .selectFrom("users")
      .innerJoin("domains", "domains.id", "users.domain_id")
      .select([
        "users.role",
        "users.is_demo",
        "users.factory_password",
        "domains.name",
        "domains.is_demo as domain_is_demo",
      ])
      .where("users.username", "=", "demo")
      .executeTakeFirstOrThrow();
    expect(demo).toEqual({
      role: 2,
      is_demo: true,
      factory_password: false,
      name: "demo",
      domain_is_demo: true,
    });
  });

  it("lets root sign in with the environment's password, with the factory flag set", async () => {
    const response = await login({ username: "root", password: "Env-root-password-1" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      role: 1,
      factory_password: true,
      domain_name: null,
      name: "Root",
    });
  });

  it("leaves everything as it is on later starts, even with another password", async () => {
    const usersBefore = await t.db
      .selectFrom("users")
      .select(["id", "password_hash"])
      .orderBy("id")
      .execute();
    const result = await runFirstStart(t.db, {
      rootPassword: "Another-password-2",
      now: t.clock.now,
      log: { warn() {} },
    });
    expect(result).toMatchObject({ isRootCreated: false, isDemoCreated: false });
    expect(await t.db.selectFrom("users").select(["id", "password_hash"]).orderBy("id").execute()).toEqual(
      usersBefore,
    );
    expect(await t.db.selectFrom("security_policies").select("id").execute()).toHaveLength(1);
    expect(await t.db.selectFrom("domains").select("id").execute()).toHaveLength(1);
    expect((await login({ username: "root", password: "Another-password-2" })).statusCode).toBe(401);
    expect((await login({ username: "root", password: "Env-root-password-1" })).statusCode).toBe(200);
  });

  it("does not let anyone sign in as the demo user with a password", async () => {
    const response = await login({ username: "demo", password: "demo" });
    expect(response.statusCode).toBe(401);
  });
});

describe("first start without CELLFLEET_ROOT_PASSWORD", () => {
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await createTestApp({ seed: false });
  });
  afterAll(async () => {
    await fresh.close();
  });

  it("generates a 16-character root password and logs it once at warn level", async () => {
    const warnings: string[] = [];
    const log = { warn: (message: string) => warnings.push(message) };
    const result = await runFirstStart(fresh.db, { now: fresh.clock.now, log });
    const password = result.generatedRootPassword ?? "";
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(warnings).toEqual([`root factory password: ${password}`]);
    const response = await fresh.app.inject({
      method: "POST",
      url: "/api/login/",
      payload: { username: "root", password },
    });
    expect(response.statusCode).toBe(200);

    await runFirstStart(fresh.db, { now: fresh.clock.now, log });
    expect(warnings).toHaveLength(1);
  });
});
