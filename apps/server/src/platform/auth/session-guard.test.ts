import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { AppContext } from "../context";
import { requireSession } from "./session-guard";

/** Fixture routes that exercise the guard the way feature routes will. */
const fixtureRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app) => {
  app.get("/fixture/admins", { config: { permission: "devices.create" } }, async (request) => ({
    role: requireSession(request).role,
  }));
  app.post(
    "/fixture/save",
    {
      schema: { body: z.object({ name: z.string().min(1) }).strict() },
      config: { saves: true, permission: "devices.edit" },
    },
    async (request) => ({ saved: request.body.name }),
  );
  app.post(
    "/fixture/read",
    { schema: { body: z.object({}).strict().nullish() }, config: { permission: "devices.view" } },
    async () => ({ ok: true }),
  );
  app.post("/fixture/undeclared", async () => ({ ok: true }));
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ extraApiRoutes: [fixtureRoutes] });
});
afterAll(async () => {
  await t.close();
});

describe("session guard", () => {
  it("refuses a role outside the route's list with 403 PERMISSION_DENIED", async () => {
    const operator = await buildUser(t, { role: 4 });
    const response = await t.app.inject({
      method: "GET",
      url: "/api/fixture/admins",
      headers: { token: await signIn(t.app, operator) },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("PERMISSION_DENIED");
  });

  it("lets a listed role through", async () => {
    const admin = await buildUser(t, { role: 2 });
    const response = await t.app.inject({
      method: "GET",
      url: "/api/fixture/admins",
      headers: { token: await signIn(t.app, admin) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ role: 2 });
  });

  it("checks the token before the role and the body", async () => {
    const anonymous = await t.app.inject({ method: "GET", url: "/api/fixture/admins" });
    expect(anonymous.json().code).toBe("TOKEN_NOT_GIVEN");
    const badBody = await t.app.inject({ method: "POST", url: "/api/fixture/save", payload: { name: "" } });
    expect(badBody.json().code).toBe("TOKEN_NOT_GIVEN");
  });

  it("takes the token out of the body before the schema sees it", async () => {
    const admin = await buildUser(t);
    const token = await signIn(t.app, admin);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/save",
      payload: { token, name: "x" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ saved: "x" });
  });

  it("locks every route but profile, self and logout while the factory password is unchanged", async () => {
    const user = await buildUser(t, { role: 2, factoryPassword: true });
    const token = await signIn(t.app, user);
    const locked = await t.app.inject({ method: "POST", url: "/api/fixture/read", headers: { token } });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().code).toBe("PERMISSION_DENIED");
    for (const url of ["/api/profile", "/api/accounting/self", "/api/logout/"]) {
      const open = await t.app.inject({ method: "POST", url, headers: { token } });
      expect(open.statusCode, url).toBe(200);
    }
  });

  it("refuses a saving route to the demo user with 403 DEMO_PERMISSIONS_DENIED, and lets reads through", async () => {
    const token = await signInDemo(t.app);
    const save = await t.app.inject({
      method: "POST",
      url: "/api/fixture/save",
      headers: { token },
      payload: { name: "x" },
    });
    expect(save.statusCode).toBe(403);
    expect(save.json().code).toBe("DEMO_PERMISSIONS_DENIED");
    const read = await t.app.inject({ method: "POST", url: "/api/fixture/read", headers: { token } });
    expect(read.statusCode).toBe(200);
  });

  it("refuses a guarded route that declares no permission to everyone, admins included", async () => {
    const token = await signIn(t.app, await buildUser(t, { role: 2 }));
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/undeclared",
      headers: { token },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("PERMISSION_DENIED");
  });

  it("refuses a denied caller before it validates the body (403 before 400)", async () => {
    const token = await signIn(t.app, await buildUser(t, { role: 4 }));
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/save",
      headers: { token },
      payload: { name: "" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("PERMISSION_DENIED");
  });

  it("refuses a bad body with 400 BAD_REQUEST naming the field", async () => {
    const token = await signIn(t.app, await buildUser(t));
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/save",
      headers: { token },
      payload: { name: "" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "BAD_REQUEST", message: expect.stringContaining("body.name") });
  });
});
