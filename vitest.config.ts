import { defineConfig } from "vitest/config";

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
          name: "web",
          root: "apps/web",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
        },
      },
    ],
  },
});
