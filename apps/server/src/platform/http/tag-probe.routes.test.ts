import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, buildApiToken } from "../../test/api-token-factories";
import { buildDevice, buildEvent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { buildFile } from "../../test/file-factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { ApiRouteEntry } from "../auth/permissions";

// Issue 30, ADR 041: the outside probe with "another tag" in place of "another domain". People
// limited to the tag "north" call every route of the app's own registry, with the ids of a router
// tagged "south" (and of its command, file and remote session) in every path parameter and in the
// body fields that name routers; no answer may hold anything of that router. API tokens narrowed to
// "north" probe too: an admin's (the only way an admin is narrowed) and an unlimited assistant's.
// The admin's same calls are the control: they must find it, or the probe proves nothing.

const NOBODY = "00000000-0000-4000-8000-000000000000";

let t: TestApp;
let routes: ApiRouteEntry[];
type Headers = Record<string, string>;
const limited: [string, Headers][] = [];
let adminToken: string;
let south: { id: string; ident: string };
let southCommandId: string;
let southTunnelId: string;
let southFileId: string;
/** What only the south router's rows hold: its id, ident, serial, description, event text. */
let markers: string[];

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  routes = t.app.apiRoutes.filter((route) => !route.isWebSocket && !/\/logout/.test(route.url));
  const domainId = (await buildDomain(t)).id;
  const admin = await buildUser(t, { role: 2, domainId });
  adminToken = await signIn(t.app, admin);
  for (const [kind, options] of [
    ["assistant", { role: 3 as const }],
    ["junior", { role: 3 as const, isJunior: true }],
    ["operator", { role: 4 as const }],
  ] as const) {
    limited.push([
      kind,
      { token: await signIn(t.app, await buildUser(t, { ...options, domainId, tagScope: ["north"] })) },
    ]);
  }
  const assistant = await signIn(t.app, await buildUser(t, { role: 3, domainId }));
  limited.push(["admin's token", bearer(await buildApiToken(t, adminToken, { tagScope: ["north"] }))]);
  limited.push(["assistant's token", bearer(await buildApiToken(t, assistant, { tagScope: ["north"] }))]);
  await buildDevice(t, domainId, { tags: ["north"], last_contact: t.clock.now(), serial: "SN-NORTH" });
  south = await buildDevice(t, domainId, {
    tags: ["south"],
    last_contact: t.clock.now(),
    serial: "SN-SOUTHPROBE",
    description: "Southprobe site",
    model: "RUT955",
  });
  await buildEvent(t, domainId, { deviceId: south.id, message: "Southprobe alarm" });
  southFileId = await buildFile(t, domainId, {
    deviceId: south.id,
    fileType: "backup",
    filename: "southprobe-backup.tar.gz",
  });
  const command = await t.app.inject({
    method: "POST",
    url: "/api/command/new",
    headers: { token: adminToken },
    payload: { type: "reboot", targets: { devices: [south.id] } },
  });
  expect(command.statusCode, command.body).toBe(200);
  southCommandId = command.json()._id;
  const tunnel = await t.app.inject({
    method: "POST",
    url: "/api/tunnels",
    headers: { token: adminToken },
    payload: { device_id: south.id, minutes: 30 },
  });
  expect(tunnel.statusCode, tunnel.body).toBe(200);
  southTunnelId = tunnel.json()._id;
  markers = [
    south.id,
    south.ident,
    "SN-SOUTHPROBE",
    "Southprobe",
    "southprobe-backup",
    southCommandId,
    southTunnelId,
  ];
}, 60_000);
afterAll(async () => {
  await t.close();
});

function urlOf(route: ApiRouteEntry): string {
  const url = route.url.startsWith("/api/tunnel/") ? route.url.replace(":id", southTunnelId) : route.url;
  return url
    .replace(/:(dev_id|device_id)/g, south.id)
    .replace(/:command_id/g, southCommandId)
    .replace(/:fileId/g, southFileId)
    .replace(/:[A-Za-z_]+/g, NOBODY)
    .replace(/\*$/, NOBODY);
}

/** Bodies that name the south router every way a route may take one, and an empty one (lists). */
function bodies(): object[] {
  return [
    {},
    { device_id: south.id },
    { dev_id: south.id },
    { targets: [south.id], action: "add_tags", tags: ["north"] },
    { devices: [south.id] },
    { type: "reboot", targets: { all: true, devices: [], tags: [] } },
    { command_id: southCommandId },
    { ids: [southFileId], file_ids: [southFileId] },
    { search: south.ident },
    // Reports over many routers that name none (the uptime page, its CSV): this month's.
    { month: t.clock.now().toISOString().slice(0, 7), language: "en" },
  ];
}

/** Every call's answer that holds a marker of the south router, as `METHOD url body → marker`. */
async function probe(headers: Headers): Promise<string[]> {
  const leaks: string[] = [];
  for (const route of routes) {
    const calls =
      route.method === "GET" || route.method === "DELETE"
        ? [undefined]
        : (bodies() as (object | undefined)[]);
    for (const payload of calls) {
      const response = await t.app.inject({
        method: route.method as "GET" | "POST" | "PUT" | "DELETE",
        url: urlOf(route),
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
      // The answer may repeat what the caller sent (an id of a refused body), not what it did not.
      const sent = JSON.stringify(payload ?? {});
      const found = markers.find((marker) => response.body.includes(marker) && !sent.includes(marker));
      if (found) leaks.push(`${route.method} ${route.url} ${sent.slice(0, 80)} → ${found}`);
    }
  }
  return leaks;
}

describe("the outside probe with another tag", () => {
  it("finds nothing of it in any answer to people limited to north: 0 leaks", async () => {
    for (const [kind, headers] of limited) {
      const leaks = await probe(headers);
      expect(leaks, `${kind}:\n${leaks.join("\n")}`).toEqual([]);
    }
  }, 600_000);

  // After the limited probes: the admin's calls may change the south router (a tag, a delete).
  it("finds the south router in the admin's answers (the control)", async () => {
    const seen = await probe({ token: adminToken });
    expect(seen.length).toBeGreaterThan(5);
  }, 300_000);
});
