import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, buildEvent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { buildFile } from "../../test/file-factories";
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

describe("what names routers without a router id (ADR 041)", () => {
  it("refuses a command that sends another tag's router's backup as not found; a common file goes", async () => {
    const southBackup = await buildFile(t, domainId, { fileType: "backup", deviceId: south.id });
    const northBackup = await buildFile(t, domainId, { fileType: "backup", deviceId: north1.id });
    const common = await buildFile(t, domainId, { fileType: "file" });
    const send = (fileId: string, url = "/api/commands/dry-run") =>
      post(assistant, url, { type: "restore", file_id: fileId, targets: { devices: [north2.id] } });
    for (const url of ["/api/commands/dry-run", "/api/command/new"]) {
      const refused = await send(southBackup, url);
      expect([refused.status, refused.body.code], refused.text).toEqual([404, "COMMAND_FILE_NOT_FOUND"]);
    }
    expect((await send(northBackup)).status).toBe(200);
    expect(
      (
        await post(assistant, "/api/commands/dry-run", {
          type: "download",
          file_id: common,
          targets: { devices: [north2.id] },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post(admin, "/api/commands/dry-run", {
          type: "restore",
          file_id: southBackup,
          targets: { devices: [north2.id] },
        })
      ).status,
    ).toBe(200);
  });

  it("shows a template's values of their routers only", async () => {
    const made = await post(admin, "/api/template/new", {
      name: "Scoped APN",
      text: "set apn={{apn}}",
      defaults: { apn: "internet" },
      device_values: { [north1.id]: { apn: "north.apn" }, [south.id]: { apn: "south-secret" } },
    });
    expect(made.status, made.text).toBe(200);
    const seen = await post(assistant, `/api/template/${made.body._id}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.device_values).toEqual({ [north1.id]: { apn: "north.apn" } });
    expect(seen.text).not.toContain("south-secret");
    expect(
      Object.keys((await post(admin, `/api/template/${made.body._id}`)).body.device_values as object),
    ).toHaveLength(2);
  });

  it("marks read only events of their routers, and counts only those", async () => {
    const reader = await signIn(t.app, await buildUser(t, { role: 4, domainId, tagScope: ["north"] }));
    const southEvent = await buildEvent(t, domainId, { deviceId: south.id, message: "south again" });
    const refused = await post(reader, "/api/events/read", { ids: [String(southEvent)] });
    expect([refused.status, refused.body.code], refused.text).toEqual([404, "EVENT_NOT_FOUND"]);
    const unread = (await post(reader, "/api/events/unread")).body.count as number;
    const all = await post(reader, "/api/events/read", { all: true });
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual({ updated: unread, unread: 0 });
  });

  it("does not take a command whose routers were all deleted for theirs", async () => {
    const gone = await buildDevice(t, domainId, { tags: ["south"], last_contact: t.clock.now() });
    const sent = await post(admin, "/api/command/new", { type: "reboot", targets: { devices: [gone.id] } });
    expect(sent.status, sent.text).toBe(200);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/device/${gone.id}`,
      headers: { token: admin },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const one = await post(assistant, `/api/command/${sent.body._id}`);
    expect([one.status, one.body.code], one.text).toEqual([404, "COMMAND_NOT_FOUND"]);
    const list = await post(assistant, "/api/commands/", { limit: 100 });
    expect(list.status, list.text).toBe(200);
    expect(list.text).not.toContain(String(sent.body._id));
    expect((await post(admin, `/api/command/${sent.body._id}`)).status).toBe(200);
  });

  it("follows a SIM of their router only while it is in their routers", async () => {
    const iccid = "89700000000000000011";
    const day = (ago: number) =>
      new Date(t.clock.now().getTime() - ago * 86_400_000).toISOString().slice(0, 10);
    const row = (deviceId: string, ago: number, rx: number) => ({
      domain_id: domainId,
      iccid,
      day: day(ago),
      device_id: deviceId,
      modem: "1-1",
      slot: 1,
      rx,
      tx: 0,
      seen: new Date(t.clock.now().getTime() - ago * 86_400_000),
    });
    // In a north router two days ago; moved to the south router yesterday.
    await t.db
      .insertInto("sim_usage")
      .values([row(north2.id, 2, 1000), row(south.id, 1, 5000)])
      .execute();
    const mine = await post(operator, `/api/device/${north2.id}/usage`);
    expect(mine.status, mine.text).toBe(200);
    const sim = (mine.body.sims as { iccid: string; device: { _id: string }; days: { rx: number }[] }[]).find(
      (item) => item.iccid === iccid,
    );
    expect(sim?.device._id).toBe(north2.id);
    expect(sim?.days.reduce((sum, d) => sum + d.rx, 0)).toBe(1000);
    expect(mine.text).not.toContain(south.id);
    expect(mine.text).not.toContain(south.ident);
    // The admin follows it to the south router.
    expect((await post(admin, `/api/device/${north2.id}/usage`)).text).toContain(south.ident);
  });

  it("refuses an admin's token narrowed to tags what moves every router of the domain", async () => {
    const made = await post(admin, "/api/tokens/new", {
      name: "north admin",
      expires_at: t.clock.now().getTime() + 86_400_000,
      permissions: [
        "devices.importCheck",
        "devices.create",
        "rolloutOffers.view",
        "settings.save",
        "jobs.view",
      ],
      tag_scope: ["north"],
    });
    expect(made.status, made.text).toBe(200);
    const scoped = made.body.token as string;
    for (const url of ["/api/rollout-offers", "/api/jobs/"]) {
      const answer = await post(scoped, url, {}, "bearer");
      expect([answer.status, answer.body.code], `${url}: ${answer.text}`).toEqual([403, "PERMISSION_DENIED"]);
    }
    const form = (plan: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/devices/import/${plan}`,
        headers: {
          authorization: `Bearer ${scoped}`,
          "content-type": "multipart/form-data; boundary=X",
        },
        payload: `--X\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\nContent-Type: text/csv\r\n\r\nident,tags\r\n${south.ident},north\r\n--X--\r\n`,
      });
    for (const plan of ["check", "0".repeat(32)]) {
      const answer = await form(plan);
      expect([answer.statusCode, answer.json().code], answer.body).toEqual([403, "PERMISSION_DENIED"]);
    }
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
