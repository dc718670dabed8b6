import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";

describe("OpenAPI", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it("describes the routes from their zod schemas at /api/docs/json", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/api/health",
        "/api/login/",
        "/api/logout/",
        "/api/accounting/self",
        "/api/profile",
      ]),
    );
    const loginBody = document.paths["/api/login/"].post.requestBody.content["application/json"].schema;
    expect(JSON.stringify(loginBody)).toContain("password");
    expect(document.paths["/api/ws/"]).toBeUndefined();
  });

  it("serves the documentation page at /api/docs", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/text\/html/);
  });
});
