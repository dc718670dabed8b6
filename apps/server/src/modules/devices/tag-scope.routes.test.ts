import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, buildEvent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 30, ADR 041: a person limited to tags sees, counts, exports and commands the routers with
// one of their tags only, on every surface; a token's scope narrows further; a removed tag counts at once.

let t: TestApp;
let domainId: string;
let admin: string;
let operator: string;
let assistant: string;
let junior: string;
let north1: { id: string; ident: string };
let north2: { id: string; ident: string };
let south: { id: string; ident: string };
let bare: { id: string; ident: string };

async function post(token: string, url: string, payload: object = {}, header = "token") {
  const response = await t.app.inject({
    method: "POST",
    url,
    headers: header === "token" ? { token } : { authorization: `Bearer ${token}` },
    payload,
  });
  let body: Record<string, unknown> = {};
  try {
    body = response.json();
  } catch {}
  return { status: response.statusCode, body, text: response.body };
}

/** The idents of the device list as `token` sees it, and its header's total. */
async function listed(token: string, header = "token") {
  const answer = await post(token, "/api/devices/", { size: 100, facets: true }, header);
  expect(answer.status, answer.text).toBe(200);
  const lines = answer.text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const idents = lines.filter((line) => typeof line.ident === "string").map((line) => line.ident as string);
  const facets = lines.find((line) => line.facets)?.facets;
  return { total: lines[0].total as number, idents: idents.sort(), facets };
}

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  operator = await signIn(t.app, await buildUser(t, { role: 4, domainId, tagScope: ["north"] }));
  assistant = await signIn(t.app, await buildUser(t, { role: 3, domainId, tagScope: ["north"] }));
  junior = await signIn(t.app, await buildUser(t, { role: 3, domainId, isJunior: true }));
  const now = t.clock.now();
  north1 = await buildDevice(t, domainId, { tags: ["north", "pumps"], last_contact: now });
  north2 = await buildDevice(t, domainId, { tags: ["north"], last_contact: now });
  south = await buildDevice(t, domainId, { tags: ["south", "pumps"], last_contact: now });
  bare = await buildDevice(t, domainId, { last_contact: now });
});
afterAll(async () => {
  await t.close();
});

describe("a tag-limited person's device views", () => {
  it("lists, counts and facets only their routers; the admin sees all", async () => {
    const mine = await listed(operator);
    expect(mine.idents).toEqual([north1.ident, north2.ident].sort());
    expect(mine.total).toBe(2);
    expect(mine.facets.tags).toEqual([
      { value: "north", count: 2 },
      { value: "pumps", count: 1 },
    ]);
    expect((await listed(admin)).total).toBe(4);
  });

  it("answers the dashboard totals, the tag counts and the export for their routers only", async () => {
    const totals = await post(operator, "/api/dashboard/");
    expect(totals.body.total).toBe(2);
    expect((await post(admin, "/api/dashboard/")).body.total).toBe(4);
    const tags = await post(operator, "/api/tags/");
    expect(tags.body).toEqual({ north: 2, pumps: 1 });
    const csv = await post(operator, "/api/devices/export");
    expect(csv.status, csv.text).toBe(200);
    expect(csv.text).toContain(north1.ident);
    expect(csv.text).not.toContain(south.ident);
    expect(csv.text).not.toContain(bare.ident);
  });

  it("answers another tag's router page, events and history with 404 DEVICE_NOT_FOUND", async () => {
    expect((await post(operator, `/api/device/${north1.id}`)).status).toBe(200);
    for (const url of [
      `/api/device/${south.id}`,
      `/api/device/${bare.id}`,
      `/api/events/${south.id}`,
      `/api/device/${south.id}/signal`,
      `/api/device/${south.id}/usage`,
    ]) {
      const answer = await post(operator, url);
      expect([answer.status, answer.body.code], `${url}: ${answer.text}`).toEqual([404, "DEVICE_NOT_FOUND"]);
    }
  });

  it("lists and counts the events of their routers only", async () => {
    await buildEvent(t, domainId, { deviceId: north1.id, message: "north event" });
    await buildEvent(t, domainId, { deviceId: south.id, message: "south event" });
    await buildEvent(t, domainId, { message: "domain event" });
    const events = await post(operator, "/api/events/all", { limit: 100 });
    expect(events.status, events.text).toBe(200);
    expect(events.text).toContain("north event");
    expect(events.text).not.toContain("south event");
    expect(events.text).not.toContain("domain event");
    expect((await post(operator, "/api/events/unread")).body.count).toBe(1);
    expect((await post(admin, "/api/events/unread")).body.count).toBe(3);
  });

  it("drops a router from view at once when its tag is removed", async () => {
    const router = await buildDevice(t, domainId, { tags: ["north"] });
    expect((await listed(operator)).idents).toContain(router.ident);
    const removed = await post(admin, "/api/devices/multiple", {
      action: "remove_tags",
      targets: [router.id],
      tags: ["north"],
    });
    expect(removed.status, removed.text).toBe(200);
    const after = await listed(operator);
    expect(after.idents).not.toContain(router.ident);
    // The counts too: the write dropped the cached ones (the router itself was inserted without one).
    expect(after.total).toBe(after.idents.length);
    expect((await post(operator, "/api/dashboard/")).body.total).toBe(after.idents.length);
    expect((await post(operator, `/api/device/${router.id}`)).status).toBe(404);
  });

  it("refuses tag edits of another tag's routers (404), so no router is pulled into view", async () => {
    const answer = await post(assistant, "/api/devices/multiple", {
      action: "add_tags",
      targets: [south.id],
      tags: ["north"],
    });
    expect([answer.status, answer.body.code], answer.text).toEqual([404, "DEVICE_NOT_FOUND"]);
    const edit = await post(assistant, `/api/device/${south.id}/edit`, { tags: ["north"] });
    expect([edit.status, edit.body.code], edit.text).toEqual([404, "DEVICE_NOT_FOUND"]);
  });
});

describe("a tag-limited person's commands", () => {
  it("sends a command to all of theirs, and refuses another tag's router as not found", async () => {
    const all = await post(assistant, "/api/command/new", { type: "reboot", targets: { all: true } });
    expect(all.status, all.text).toBe(200);
    expect(all.body.total).toBe(2);
    const dry = await post(assistant, "/api/commands/dry-run", {
      type: "reboot",
      targets: { tags: ["pumps"] },
    });
    expect(dry.body.targets).toBe(1);
    const named = await post(assistant, "/api/command/new", {
      type: "reboot",
      targets: { devices: [south.id] },
    });
    expect([named.status, named.body.code], named.text).toEqual([404, "DEVICE_NOT_FOUND"]);
  });

  it("sees, lists and approves only commands wholly about their routers", async () => {
    const theirs = await post(junior, "/api/command/new", {
      type: "reboot",
      targets: { devices: [south.id] },
    });
    const ours = await post(junior, "/api/command/new", {
      type: "reboot",
      targets: { devices: [north2.id] },
    });
    expect([theirs.status, ours.status], theirs.text + ours.text).toEqual([200, 200]);
    const waiting = await post(assistant, "/api/commands/waiting");
    const waitingIds = (waiting.body.items as { _id: string }[]).map((item) => item._id);
    expect(waitingIds).toContain(ours.body._id);
    expect(waitingIds).not.toContain(theirs.body._id);
    const list = await post(assistant, "/api/commands", {});
    expect(list.text).toContain(String(ours.body._id));
    expect(list.text).not.toContain(String(theirs.body._id));
    const reports = await post(assistant, "/api/reports", {});
    expect(reports.text).not.toContain(south.ident);
    for (const url of [`/api/command/${theirs.body._id}`, `/api/command/${theirs.body._id}/approve`]) {
      const answer = await post(assistant, url);
      expect([answer.status, answer.body.code], `${url}: ${answer.text}`).toEqual([404, "COMMAND_NOT_FOUND"]);
    }
    const approved = await post(assistant, `/api/command/${ours.body._id}/approve`);
    expect(approved.status, approved.text).toBe(200);
  });
});

describe("an API token's tag scope", () => {
  async function token(session: string, tagScope: string[]) {
    const made = await post(session, "/api/tokens/new", {
      name: `scoped ${Math.random()}`,
      expires_at: t.clock.now().getTime() + 86_400_000,
      permissions: ["devices.view"],
      tag_scope: tagScope,
    });
    expect(made.status, made.text).toBe(200);
    expect((made.body.item as { tag_scope: string[] }).tag_scope).toEqual(tagScope);
    return made.body.token as string;
  }

  it("narrows an admin's token to its tags", async () => {
    const mine = await listed(await token(admin, ["south"]), "bearer");
    expect(mine.idents).toEqual([south.ident]);
  });

  it("narrows a limited person's token further and never widens it", async () => {
    expect((await listed(await token(operator, ["pumps"]), "bearer")).idents).toEqual([north1.ident]);
    expect((await listed(await token(operator, ["south"]), "bearer")).idents).toEqual([]);
    const page = await post(await token(operator, ["south"]), `/api/device/${south.id}`, {}, "bearer");
    expect(page.status).toBe(404);
  });

  it("refuses an invalid tag with 400 BAD_REQUEST", async () => {
    const made = await post(admin, "/api/tokens/new", {
      name: "bad",
      expires_at: t.clock.now().getTime() + 86_400_000,
      permissions: ["devices.view"],
      tag_scope: ["x"],
    });
    expect([made.status, made.body.code]).toEqual([400, "BAD_REQUEST"]);
  });
});
