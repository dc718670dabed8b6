import { API_ROUTES } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";

// The web calls the API only through the contract's route map (packages/contract/src/api-paths.ts),
// so each of its keys must be a route this server registers: the same method, the same path and the
// same parameter names, as the OpenAPI description lists them. The router ignores a trailing slash,
// and so does the comparison.

const withoutSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, "") : path);

describe("the web's route map", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it("names only routes the server registers, with their parameter names", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const registered = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${withoutSlash(path)}`),
      ),
    );
    const keys = Object.keys(API_ROUTES);
    expect(keys.length).toBeGreaterThan(100);
    const unknown = keys.filter((key) => {
      const [method, path = ""] = key.split(" ");
      return !registered.has(`${method} ${withoutSlash(path)}`);
    });
    expect(unknown).toEqual([]);
  });
});
