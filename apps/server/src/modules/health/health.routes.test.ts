import { readFileSync } from "node:fs";
import { HealthSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../platform/db/migrate";
import { createTestApp, type TestApp } from "../../test/test-app";

const packageVersion = JSON.parse(
  readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
).version;

describe("GET /api/health", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers 200 with the versions and the database engine, without a token", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    const body = HealthSchema.parse(response.json());
    expect(body.status).toBe("ok");
    expect(body.version).toBe(packageVersion);
    expect(body.schema_version).toBe(Object.keys(MIGRATIONS).sort().at(-1));
    expect(body.database).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
  });

  it("ignores a bad token, as a public route", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { token: "nonsense" },
    });
    expect(response.statusCode).toBe(200);
  });

  it("sends the security headers", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("connect-src 'self' ws: wss:");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("refuses other methods with a JSON 404", async () => {
    const response = await t.app.inject({ method: "DELETE", url: "/api/health" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "OPERATION_IS_NOT_SUPPORTED", message: expect.any(String) });
    // X-Frame-Options says what the CSP says: no page of ours is ever framed.
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(String(response.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
  });
});
