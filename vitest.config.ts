import { defineConfig } from "vitest/config";

// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks; without it a failing test crashes the
// summary instead of naming the failure. The config loads in the reporter's process, so this suffices.
if (typeof (Map as { groupBy?: unknown }).groupBy !== "function") {
  Object.defineProperty(Map, "groupBy", {
    configurable: true,
    writable: true,
    value<K, V>(items: Iterable<V>, keyOf: (item: V, index: number) => K): Map<K, V[]> {
      const groups = new Map<K, V[]>();
      let index = 0;
      for (const item of items) {
        const key = keyOf(item, index++);
        const group = groups.get(key);
        if (group) group.push(item);
        else groups.set(key, [item]);
      }
      return groups;
    },
  });
}

// One run covers every workspace: contract unit tests, server integration tests, web unit tests.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "contract", root: "packages/contract", include: ["src/**/*.test.ts"] } },
      {
        test: {
          name: "server",
          root: "apps/server",
          include: ["src/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "simulator",
          root: "apps/simulator",
          include: ["src/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: { name: "license-service", root: "apps/license-service", include: ["src/**/*.test.ts"] },
      },
      {
        test: {
          name: "web",
          root: "apps/web",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          // Vitest's 5 s ran out twice on the first render of the dashboard in CI's PGlite pass, a web
          // file beside a server file on a busy 2-core machine (stop 39); nothing had hung.
          testTimeout: 20_000,
          // Both languages' texts, which the app fetches one at a time (ADR 018).
          setupFiles: ["src/test/setup.ts"],
        },
      },
      // npm start's build-once step (scripts/web-build.mjs).
      { test: { name: "scripts", root: "scripts", include: ["*.test.ts"] } },
      // The route bundle weights (issue 11): builds the web app once, fails over a ceiling.
      { test: { name: "bench", root: "bench", include: ["bundle.test.ts"], hookTimeout: 120_000 } },
    ],
  },
});
