import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { AppContext } from "../context";

/** Public fixture routes that fail the way real code can. */
const failingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get("/fixture/throws", { config: { isPublic: true } }, async () => {
    throw new Error("secret detail: connection string postgres://admin:hunter2@db");
  });
  app.get("/fixture/bad-sql", { config: { isPublic: true } }, async () => {
    await sql`select * from no_such_table_here`.execute(ctx.db);
    return { ok: true };
  });
  app.post("/fixture/echo", { config: { isPublic: true } }, async (request) => ({
    size: JSON.stringify(request.body).length,
  }));
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ extraApiRoutes: [failingRoutes], seed: false });
});
afterAll(async () => {
  await t.close();
});

function expectNoInsides(text: string): void {
  expect(text).not.toMatch(/stack|\n\s+at |hunter2|no_such_table|\.ts:\d+/i);
}

describe("error answers", () => {
  it("answers an unknown /api path with a JSON 404 NOT_FOUND", async () => {
    for (const method of ["GET", "POST"] as const) {
      const response = await t.app.inject({ method, url: "/api/no/such/route" });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/application\/json/);
      expect(response.json()).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
    }
  });

  it("answers malformed JSON with 400 BAD_REQUEST", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/login/",
      headers: { "content-type": "application/json" },
      payload: '{"username": "root", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "BAD_REQUEST", message: expect.any(String) });
    expectNoInsides(response.body);
  });

  it("answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/echo",
      payload: { text: "x".repeat(1024 * 1024 + 10) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("accepts a body just under the limit", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/echo",
      payload: { text: "x".repeat(1000) },
    });
    expect(response.statusCode).toBe(200);
  });

  it("answers an unexpected failure with 500 INTERNAL_ERROR and a generic message", async () => {
    for (const url of ["/api/fixture/throws", "/api/fixture/bad-sql"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: "INTERNAL_ERROR", message: "Internal server error" });
      expectNoInsides(response.body);
    }
  });

  it("answers an unsupported content type with 400 BAD_REQUEST", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/echo",
      headers: { "content-type": "application/x-unknown" },
      payload: "whatever",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("BAD_REQUEST");
  });
});
