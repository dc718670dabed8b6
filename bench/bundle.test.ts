import { beforeAll, describe, expect, it } from "vitest";
import { buildWeb, measureRoutes, type RouteWeight } from "./bundle";

// Builds the web app once and fails when a route's JavaScript grows past its budget (issue 11).
describe("route bundle budgets", () => {
  let weights: RouteWeight[] = [];
  beforeAll(() => {
    buildWeb();
    weights = measureRoutes();
  }, 120_000);

  it("keeps every weighed route under its gzipped ceiling", () => {
    const over = weights.filter((row) => row.gzipKb > row.ceilingKb);
    expect(over).toEqual([]);
  });

  it("starts /login and the dashboard without zod: answers are checked by the server (ADR 026)", () => {
    const withZod = weights
      .filter((row) => row.route !== "/device/{id}" && row.hasZod)
      .map((row) => row.route);
    expect(withZod).toEqual([]);
  });

  it("loads less on /login than on the dashboard (pages are split by route)", () => {
    const login = weights.find((row) => row.route === "/login");
    const dashboard = weights.find((row) => row.route === "/dashboard");
    expect(login && dashboard && login.gzipKb < dashboard.gzipKb).toBe(true);
  });
});
