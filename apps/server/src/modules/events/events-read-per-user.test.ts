import type { FleetEvent } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, buildEvent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 11: a view-only operator marked events read for the whole domain and cleared everyone's
// 'new' badge, approval events included. Read state is per user.
let t: TestApp;
let domainId: string;
let admin: string;
let operator: string;

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  operator = await signIn(t.app, await buildUser(t, { role: 4, domainId }));
});
afterAll(async () => {
  await t.close();
});

async function post(token: string, url: string, payload: object = {}) {
  return t.app.inject({ method: "POST", url, headers: { token }, payload });
}
async function unread(token: string): Promise<number> {
  return (await post(token, "/api/events/unread")).json().count;
}
async function readFlags(token: string): Promise<Record<string, boolean>> {
  const body = (await post(token, "/api/events/all", { limit: 100 })).body;
  const events: FleetEvent[] = body
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
  return Object.fromEntries(events.map((event) => [event._id, event.read]));
}

describe("event read state is per user", () => {
  it("an operator's 'all read' clears only the operator's badge, approval events included", async () => {
    const device = await buildDevice(t, domainId);
    const approval = await buildEvent(t, domainId, { deviceId: device.id, kind: "command_approval" });
    const plain = await buildEvent(t, domainId, { deviceId: device.id });
    expect(await unread(admin)).toBe(2);
    expect(await unread(operator)).toBe(2);

    const marked = await post(operator, "/api/events/read", { all: true });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ updated: 2, unread: 0 });
    expect(await unread(operator)).toBe(0);
    expect(await unread(admin)).toBe(2);
    expect(await readFlags(admin)).toMatchObject({ [approval]: false, [plain]: false });
    expect(await readFlags(operator)).toMatchObject({ [approval]: true, [plain]: true });

    // A later event is new to both; reading one by id is the reader's alone too.
    const later = await buildEvent(t, domainId, { deviceId: device.id });
    expect(await unread(operator)).toBe(1);
    await post(admin, "/api/events/read", { ids: [approval] });
    expect(await unread(admin)).toBe(2);
    expect(await readFlags(admin)).toMatchObject({ [approval]: true, [plain]: false, [later]: false });
    const onlyUnread = (await post(admin, "/api/events/all", { limit: 100, unread: true })).body;
    expect(onlyUnread).not.toContain(`"_id":"${approval}"`);
    expect(onlyUnread).toContain(`"_id":"${later}"`);
  });
});
