import { beforeAll, describe, expect, it } from "vitest";
import {
  BUDGETS,
  buildWeb,
  type Manifest,
  measureRoutes,
  ON_ACTION,
  type RouteWeight,
  readManifest,
  routeChunks,
} from "./bundle";

// Builds the web app once and fails when a route's JavaScript grows past its budget (issue 11).
describe("route bundle budgets", () => {
  let weights: RouteWeight[] = [];
  let manifest: Manifest = {};
  beforeAll(() => {
    buildWeb();
    weights = measureRoutes();
    manifest = readManifest();
  }, 120_000);
  const chunksOf = (route: (typeof BUDGETS)[number]["route"]) => {
    const budget = BUDGETS.find((row) => row.route === route);
    if (!budget) throw new Error(`no budget for ${route}`);
    return routeChunks(manifest, budget);
  };

  it("weighs what a route fetches lazily as it comes up, walked from the manifest: the device page's charts", () => {
    const device = chunksOf("/device/{id}");
    expect(device.has("src/features/insight/history/SignalCharts.tsx")).toBe(true);
    expect([...device].some((key) => /^_uplot-/.test(key))).toBe(true);
    // The signed-in start's lazy pieces are found by the walk, not named by hand.
    expect(chunksOf("/dashboard").has("src/features/notifications/components/NewsBell.tsx")).toBe(true);
  });

  it("leaves out what only a person's action opens, the other routes' pages and the signed-in frame at /login", () => {
    const device = chunksOf("/device/{id}");
    const login = chunksOf("/login");
    for (const key of Object.keys(ON_ACTION)) {
      expect(device.has(key)).toBe(false);
      expect(login.has(key)).toBe(false);
    }
    expect(device.has("src/features/devices/DashboardPage.tsx")).toBe(false);
    expect([...login].some((key) => /^_console-/.test(key))).toBe(false);
    expect([...login].some((key) => key.endsWith("/en.json"))).toBe(false);
  });

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
