import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { loggerOptions } from "../log";

// Issue 11: the audit log stored device AES keys in clear. Keys, tokens and credentials are hidden
// in audit entries and log lines whatever carries them.
const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

let t: TestApp;
let token: string;
const deviceKey = "C3".repeat(32);
const otherKey = "5e".repeat(32);

beforeAll(async () => {
  t = await createTestApp({ logger: pino(loggerOptions("info"), sink) });
  const domainId = (await buildDomain(t, { device_limit: 100 })).id;
  token = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
});
afterAll(async () => {
  await t.close();
});

async function everyEntry(): Promise<string> {
  await t.app.auditLog.settle();
  const rows = await t.db.selectFrom("web_actions").select(["info", "action"]).execute();
  return JSON.stringify(rows);
}

describe("secrets in audit entries and logs", () => {
  it("keeps no device key from a creation, an edit or a bulk import", async () => {
    const ident = uniqueDeviceIdent();
    const created = await callApi(t.app, "POST", "/api/devices/new", token, { ident, aes_key: deviceKey });
    expect(created.status, created.text).toBe(200);
    const bulk = await callApi(t.app, "POST", "/api/devices/bulk", token, {
      text: `${uniqueDeviceIdent()},"desc, with comma",,${otherKey}`,
    });
    expect(bulk.status, bulk.text).toBe(200);
    const entries = await everyEntry();
    expect(entries).toContain("POST_devices");
    expect(entries.toLowerCase()).not.toContain(deviceKey.toLowerCase());
    expect(entries.toLowerCase()).not.toContain(otherKey.toLowerCase());
  });

  it("logs no secret a URL carries", async () => {
    await t.app.inject({ method: "GET", url: "/api/health?token=very-secret-download-token&x=1" });
    const lines = logLines.join("");
    expect(lines).toContain("/api/health");
    expect(lines).not.toContain("very-secret-download-token");
  });
});
