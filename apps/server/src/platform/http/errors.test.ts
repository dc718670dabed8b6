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
  it("answers an unknown /api path with a JSON 404 of a catalogued code", async () => {
    for (const method of ["GET", "POST"] as const) {
      const response = await t.app.inject({ method, url: "/api/no/such/route" });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/application\/json/);
      expect(response.json()).toEqual({ code: "OPERATION_IS_NOT_SUPPORTED", message: expect.any(String) });
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

  it("answers a body over 1 MiB with 413 BAD_REQUEST", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/echo",
      payload: { text: "x".repeat(1024 * 1024 + 10) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe("BAD_REQUEST");
  });

  it("accepts a body just under the limit", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/echo",
      payload: { text: "x".repeat(1000) },
    });
    expect(response.statusCode).toBe(200);
  });

  it("answers an unexpected failure with 500 WRITE_DATA_FAILED and a generic message", async () => {
    for (const url of ["/api/fixture/throws", "/api/fixture/bad-sql"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: "WRITE_DATA_FAILED", message: "Internal server error" });
      expectNoInsides(response.body);
    }
  });

  it("answers an unsupported content type with 415 BAD_REQUEST", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/echo",
      headers: { "content-type": "application/x-unknown" },
      payload: "whatever",
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe("BAD_REQUEST");
  });

  it("refuses a text/plain body on a JSON route before anything reads it", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/login/",
      headers: { "content-type": "text/plain;charset=UTF-8" },
      payload: JSON.stringify({ username: "root", password: "root-password-typed-in-clear" }),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ code: "BAD_REQUEST", message: expect.stringMatching(/JSON/) });
  });

  it.each([
    ["a NUL in a body field", { username: "\u0000", password: "x" }, "body.username"],
    ["a lone surrogate in a body field", { username: "Ghost \ud800", password: "x" }, "body.username"],
    ["a NUL in a nested key", { username: "a", password: "x", extra: { "k\u0000": 1 } }, "body.extra"],
  ])("refuses %s with BAD_REQUEST naming the field", async (_what, payload, field) => {
    const response = await t.app.inject({ method: "POST", url: "/api/login/", payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "BAD_REQUEST", message: expect.stringContaining(field) });
  });

  it("refuses a NUL in the query and in the path", async () => {
    const inQuery = await t.app.inject({ method: "GET", url: "/api/health?x=%00" });
    expect(inQuery.statusCode).toBe(400);
    expect(inQuery.json().message).toContain("query.x");
    const inPath = await t.app.inject({ method: "POST", url: "/api/fixture/echo/%00" });
    expect(inPath.statusCode).toBeLessThan(500);
  });

  it("refuses nesting deeper than the API ever needs", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const response = await t.app.inject({
      method: "POST",
      url: "/api/fixture/echo",
      headers: { "content-type": "application/json" },
      payload: deep,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/nested deeper/);
  });
});
