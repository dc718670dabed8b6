import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, uniqueDeviceIdent } from "../../test/device-factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import type { TestApp } from "../../test/test-app";
import { callApi, type DeviceTestTokens, KEY64, setupDevicesTest } from "./devices.test-support";

let t: TestApp;
let domainId: string;
let otherDomainId: string;
let tokens: DeviceTestTokens;
let socketUrl: string;
const openSockets: TestSocket[] = [];

beforeAll(async () => {
  ({ t, domainId, otherDomainId, tokens, socketUrl } = await setupDevicesTest());
});
afterEach(() => {
  for (const socket of openSockets.splice(0)) socket.ws.terminate();
});
afterAll(async () => {
  await t?.close();
});

const call = (token: string | null, method: "POST" | "DELETE", url: string, payload?: unknown) =>
  callApi(t, token, method, url, payload);

describe("POST /api/device/{dev_id}/edit", () => {
  it("changes description, tags and key, and removes the key with an empty one", async () => {
    const device = await buildDevice(t, domainId, { aes_key: KEY64.toUpperCase() });
    const edited = await call(tokens.assistant, "POST", `/api/device/${device.id}/edit`, {
      description: "Moved",
      tags: ["south"],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      _id: device.id,
      description: "Moved",
      tags: ["south"],
      has_key: true,
    });
    const cleared = await call(tokens.admin, "POST", `/api/device/${device.id}/edit`, { aes_key: "" });
    expect(cleared.body.has_key).toBe(false);
    const keyed = await call(tokens.admin, "POST", `/api/device/${device.id}/edit`, {
      aes_key: "c".repeat(64),
    });
    expect(keyed.body.has_key).toBe(true);
    const row = await t.db
      .selectFrom("devices")
      .select("aes_key")
      .where("id", "=", device.id)
      .executeTakeFirst();
    expect(row?.aes_key).toBe("C".repeat(64));
  });

  it("refuses a bad key or tags with their codes", async () => {
    const device = await buildDevice(t, domainId);
    const key = await call(tokens.admin, "POST", `/api/device/${device.id}/edit`, {
      aes_key: "c".repeat(63),
    });
    expect([key.status, key.body.code]).toEqual([400, "BAD_REQUEST"]);
    const tags = await call(tokens.admin, "POST", `/api/device/${device.id}/edit`, { tags: "south" });
    expect([tags.status, tags.body.code]).toEqual([400, "TAGS_MUST_BE_ARRAY"]);
  });

  it("answers 404 for another domain's device and changes nothing", async () => {
    const foreign = await buildDevice(t, otherDomainId, { description: "theirs" });
    const { status, body } = await call(tokens.admin, "POST", `/api/device/${foreign.id}/edit`, {
      description: "mine",
    });
    expect([status, body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    const row = await t.db
      .selectFrom("devices")
      .select("description")
      .where("id", "=", foreign.id)
      .executeTakeFirst();
    expect(row?.description).toBe("theirs");
  });
});

describe("POST /api/devices/multiple/", () => {
  it("adds and removes tags on every target", async () => {
    const first = await buildDevice(t, domainId, { tags: ["alpha", "beta"] });
    const second = await buildDevice(t, domainId, { tags: ["gamma"] });
    const targets = [first.id, second.id];
    const added = await call(tokens.assistant, "POST", "/api/devices/multiple/", {
      targets,
      action: "add_tags",
      tags: ["beta", "delta"],
    });
    expect(added.body).toEqual({ affected: 2 });
    const tagsOf = async (id: string) =>
      (await t.db.selectFrom("devices").select("tags").where("id", "=", id).executeTakeFirstOrThrow()).tags;
    expect(await tagsOf(first.id)).toEqual(["alpha", "beta", "delta"]);
    expect(await tagsOf(second.id)).toEqual(["gamma", "beta", "delta"]);
    const removed = await call(tokens.admin, "POST", "/api/devices/multiple/", {
      targets,
      action: "remove_tags",
      tags: ["beta"],
    });
    expect(removed.body).toEqual({ affected: 2 });
    expect(await tagsOf(first.id)).toEqual(["alpha", "delta"]);
    expect(await tagsOf(second.id)).toEqual(["gamma", "delta"]);
  });

  it("deletes for admins only; all or nothing when a target is foreign", async () => {
    const mine = await buildDevice(t, domainId);
    const foreign = await buildDevice(t, otherDomainId);
    const byAssistant = await call(tokens.assistant, "POST", "/api/devices/multiple/", {
      targets: [mine.id],
      action: "delete",
    });
    expect([byAssistant.status, byAssistant.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const mixed = await call(tokens.admin, "POST", "/api/devices/multiple/", {
      targets: [mine.id, foreign.id],
      action: "delete",
    });
    expect([mixed.status, mixed.body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    expect(
      await t.db.selectFrom("devices").select("id").where("id", "in", [mine.id, foreign.id]).execute(),
    ).toHaveLength(2);
    const deleted = await call(tokens.admin, "POST", "/api/devices/multiple/", {
      targets: [mine.id],
      action: "delete",
    });
    expect(deleted.body).toEqual({ affected: 1 });
  });

  it("refuses empty targets, missing tags and bad tags with their codes", async () => {
    const device = await buildDevice(t, domainId);
    const empty = await call(tokens.admin, "POST", "/api/devices/multiple/", {
      targets: [],
      action: "delete",
    });
    expect([empty.status, empty.body.code]).toEqual([400, "TARGETS_NOT_SPECIFIED"]);
    const noTags = await call(tokens.admin, "POST", "/api/devices/multiple/", {
      targets: [device.id],
      action: "add_tags",
    });
    expect(noTags.body.code).toBe("TAGS_MUST_BE_ARRAY");
    const badTags = await call(tokens.admin, "POST", "/api/devices/multiple/", {
      targets: [device.id],
      action: "add_tags",
      tags: ["x"],
    });
    expect(badTags.body.code).toBe("TAGS_MUST_BE_ARRAY");
    const badAction = await call(tokens.admin, "POST", "/api/devices/multiple/", {
      targets: [device.id],
      action: "boom",
    });
    expect([badAction.status, badAction.body.code]).toEqual([400, "BAD_REQUEST"]);
  });
});

describe("DELETE /api/device/{dev_id}", () => {
  it("deletes the domain's device, then answers 404; another domain's is 404 and stays", async () => {
    const mine = await buildDevice(t, domainId);
    const foreign = await buildDevice(t, otherDomainId);
    expect((await call(tokens.admin, "DELETE", `/api/device/${mine.id}`)).body).toEqual({ _id: mine.id });
    const again = await call(tokens.admin, "DELETE", `/api/device/${mine.id}`);
    expect([again.status, again.body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    const other = await call(tokens.admin, "DELETE", `/api/device/${foreign.id}`);
    expect([other.status, other.body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    expect(await t.db.selectFrom("devices").select("id").where("id", "=", foreign.id).execute()).toHaveLength(
      1,
    );
  });
});

describe("POST /api/device/{dev_id}", () => {
  it("answers the device and one entry per collect type, fresh within the warning minutes", async () => {
    const now = t.clock.now();
    const device = await buildDevice(t, domainId, { last_contact: now, model: "RUT955" });
    await t.db
      .insertInto("device_collects")
      .values([
        {
          device_id: device.id,
          domain_id: domainId,
          type: "board",
          data: JSON.stringify({ model: "RUT955" }),
          seq: 1,
          create_time: now,
        },
        {
          device_id: device.id,
          domain_id: domainId,
          type: "modems",
          data: JSON.stringify({ modems: [] }),
          seq: 2,
          create_time: new Date(now.getTime() - 60 * 60_000),
        },
      ])
      .execute();
    const { status, body } = await call(tokens.operator, "POST", `/api/device/${device.id}`, {});
    expect(status).toBe(200);
    expect(body.device).toMatchObject({ _id: device.id, status: "online", board: { model: "RUT955" } });
    expect(body.collects.map((c: { type: string }) => c.type)).toEqual([
      "board",
      "interfaces",
      "routing",
      "modems",
      "ethernets",
      "tunnels",
      "gps",
    ]);
    expect(body.collects[0]).toMatchObject({ type: "board", data: { model: "RUT955" }, is_fresh: true });
    // Exactly the warning minutes (60) old is no longer fresh: freshness is strict.
    expect(body.collects[3]).toMatchObject({ type: "modems", is_fresh: false });
    expect(body.collects[1]).toEqual({ type: "interfaces", create_time: null, data: null, is_fresh: false });
  });

  it("answers 404 for another domain's device", async () => {
    const foreign = await buildDevice(t, otherDomainId);
    const { status, body } = await call(tokens.admin, "POST", `/api/device/${foreign.id}`, {});
    expect([status, body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
  });
});

describe("realtime", () => {
  async function socketOf(token: string): Promise<TestSocket> {
    const socket = await openTestSocket(socketUrl);
    openSockets.push(socket);
    socket.sendJson({ token });
    expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
    return socket;
  }

  it("sends put, update and delete to the device's domain only", async () => {
    const mine = await socketOf(tokens.operator);
    const theirs = await socketOf(tokens.otherAdmin);
    const ident = uniqueDeviceIdent("RT");
    const created = await call(tokens.admin, "POST", "/api/devices/new", { ident });
    // A pushed device has no event count: that is each user's own (ADR 025).
    const { events: _events, ...pushed } = created.body;
    expect(await mine.nextMessage()).toEqual({ type: "devices", action: "put", content: [pushed] });
    await call(tokens.admin, "POST", `/api/device/${created.body._id}/edit`, { description: "edited" });
    expect(await mine.nextMessage()).toMatchObject({
      type: "devices",
      action: "update",
      content: [{ _id: created.body._id, description: "edited" }],
    });
    await call(tokens.admin, "DELETE", `/api/device/${created.body._id}`);
    expect(await mine.nextMessage()).toMatchObject({
      type: "devices",
      action: "delete",
      content: [{ ident }],
    });
    // The other domain's socket got nothing: a marker published to it arrives first.
    await t.bus.publish(`domain:${otherDomainId}`, { type: "alerts", content: ["marker"] });
    expect(await theirs.nextMessage(2000)).toEqual({ type: "alerts", content: ["marker"] });
  });
});
