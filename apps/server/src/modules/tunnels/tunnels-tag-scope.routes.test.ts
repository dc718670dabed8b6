import type { TunnelSession } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 30, ADR 041: a person limited to tags sees, ends and approves the remote-access sessions of
// their routers only; another tag's session is not found, as another domain's is.

let t: TestApp;
let admin: string;
let assistant: string;
let north: TunnelSession;
let south: TunnelSession;

const post = (token: string, url: string, payload: object = {}) =>
  t.app.inject({ method: "POST", url, headers: { token }, payload });

async function requestTunnel(token: string, deviceId: string): Promise<TunnelSession> {
  const response = await post(token, "/api/tunnels", { device_id: deviceId, minutes: 30 });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TunnelSession>();
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  const domainId = (await buildDomain(t)).id;
  admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  assistant = await signIn(t.app, await buildUser(t, { role: 3, domainId, tagScope: ["north"] }));
  const northRouter = await buildDevice(t, domainId, { tags: ["north"] });
  const southRouter = await buildDevice(t, domainId, { tags: ["south"] });
  north = await requestTunnel(admin, northRouter.id);
  south = await requestTunnel(admin, southRouter.id);
});
afterAll(async () => {
  await t.close();
});

const listed = async (token: string) =>
  (await post(token, "/api/tunnels/list")).json<{ items: TunnelSession[] }>().items.map((item) => item._id);

describe("remote-access sessions of a tag-limited person", () => {
  it("lists the sessions of their routers only; the admin's list has both", async () => {
    expect(await listed(assistant)).toEqual([north._id]);
    expect(await listed(admin)).toEqual(expect.arrayContaining([north._id, south._id]));
  });

  it("finds no session of another tag's router to end, approve, refuse or replay", async () => {
    for (const [method, url, payload] of [
      ["POST", `/api/tunnel/${south._id}/end`, {}],
      ["POST", `/api/tunnel/${south._id}/refuse`, {}],
      ["POST", `/api/tunnel/${south._id}/approve`, { device_id: south.device_id, minutes: 1 }],
      ["POST", `/api/tunnel/${south._id}/approve`, { device_id: north.device_id, minutes: 1 }],
      ["GET", `/api/tunnel/${south._id}/recording`, undefined],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { token: assistant }, payload });
      expect(response.statusCode, url).toBe(404);
      // The approval names the router too, which the guard finds outside first.
      expect(["ATUN_SRV_NOT_FOUND", "DEVICE_NOT_FOUND"]).toContain(response.json().code);
    }
    // The control: their own router's session is found (an admin's: theirs to end only by an admin).
    const own = await post(assistant, `/api/tunnel/${north._id}/end`);
    expect(own.json().code).toBe("PERMISSION_DENIED");
  });
});
