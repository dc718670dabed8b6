import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

// The browser tests start their own server on a fresh embedded database, in Debian's Chromium.
const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;
// The fleet spec connects a router of its own to the embedded broker, so its port must be known
// (not 0); the workers inherit this from the runner that loads the config.
process.env.E2E_MQTT_PORT ??= String(port + 700);

import { ROOT_PASSWORD } from "./support/accounts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./support/chromium";
import { mailboxDir } from "./support/mailbox";

export default defineConfig({
  testDir: "./tests",
  outputDir: "./test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    viewport: { width: 1400, height: 900 },
    // The console follows the browser's language (issue 27); the suite's browser asks for Russian,
    // the spec's default, and each test that wants English says so (useEnglish, browser-language.spec).
    locale: "ru-RU",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: "off",
    screenshot: "only-on-failure",
  },
  // The first run (root's factory password) is the setup project's; every spec depends on it and not
  // on the order of the files, which is free (ADR 028).
  projects: [
    { name: "setup", testMatch: /\.setup\.ts$/ },
    { name: "chromium", testMatch: /\.spec\.ts$/, dependencies: ["setup"] },
  ],
  webServer: {
    command: "npx tsx support/start-server.ts",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "cellfleet-e2e-")),
      CELLFLEET_ROOT_PASSWORD: ROOT_PASSWORD,
      LOGIN_RATE_LIMIT: "1000",
      // A small simulated demo fleet: the fleet spec watches it appear and turn online.
      SIMULATE: "5",
      // The embedded MQTT broker on a free port: 1883 may be taken (a local Mosquitto, another server).
      MQTT_PORT: process.env.E2E_MQTT_PORT ?? "0",
      LOG_LEVEL: "warn",
      // Mail of the accounting flows goes to a loopback SMTP server (support/mailbox.ts).
      E2E_MAILBOX_DIR: mailboxDir(port),
      PUBLIC_URL: baseURL,
      // Passkeys need a host name, not an IP address: the second-factor spec opens the console at
      // localhost (ADR 039).
      WEBAUTHN_ORIGIN: `http://localhost:${port}`,
      // Remote access's SSH endpoint (ADR 038), which the simulated routers dial: a port of its own.
      TUNNEL_SSH_PORT: String(port + 800),
      // Web-interface sessions each take a port of their own on the console's host (no DNS here).
      TUNNEL_WEB_PORTS: `${port + 810}-${port + 829}`,
      // The map's tiles: a style the map spec serves on loopback while it runs (support/tile-server.ts).
      MAP_STYLE_URL: `http://127.0.0.1:${port + 900}/style.json`,
    },
  },
});
