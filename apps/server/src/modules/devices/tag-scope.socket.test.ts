import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { domainTopic } from "../../platform/bus/bus";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 30, ADR 041: a tag-limited person's realtime socket receives pushes of their routers only
// (devices, collects, alerts, remote sessions, commands and executions), and a router they are shown
// that loses its tag makes the page read its list again at once.

let t: TestApp;
let socketUrl: string;
let domainId: string;
let admin: string;
let operator: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/`;
  domainId = (await buildDomain(t)).id;
  admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  operator = await signIn(t.app, await buildUser(t, { role: 4, domainId, tagScope: ["north"] }));
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.ws.terminate();
});
afterAll(async () => {
  await t.close();
});

async function socketOf(token: string, views?: object[]): Promise<TestSocket> {
  const socket = await openTestSocket(socketUrl);
  sockets.push(socket);
  socket.sendJson({ token, ...(views ? { views } : {}) });
  expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
  return socket;
}

const edit = (id: string, payload: object) =>
  t.app.inject({ method: "POST", url: `/api/device/${id}/edit`, headers: { token: admin }, payload });

describe("a tag-limited person's realtime socket", () => {
  it("gets device pushes of their routers only", async () => {
    const north = await buildDevice(t, domainId, { tags: ["north"] });
    const south = await buildDevice(t, domainId, { tags: ["south"] });
    const socket = await socketOf(operator);
    expect((await edit(south.id, { description: "south moved" })).statusCode).toBe(200);
    expect((await edit(north.id, { description: "north moved" })).statusCode).toBe(200);
    const seen: string[] = [];
    for (;;) {
      const message = (await socket.nextMessage(3000)) as { type: string; content?: unknown[] };
      seen.push(JSON.stringify(message));
      if (message.type === "devices" && (message.content?.length ?? 0) > 0) {
        expect(message.content).toMatchObject([{ _id: north.id, description: "north moved" }]);
        break;
      }
    }
    expect(seen.join("\n")).not.toContain(south.id);
    expect(seen.join("\n")).not.toContain(south.ident);
  });

  it("makes a page that shows a router read its list again when the router loses the tag", async () => {
    const router = await buildDevice(t, domainId, { tags: ["north"] });
    const socket = await socketOf(operator, [{ kind: "devices", ids: [router.id] }]);
    expect((await edit(router.id, { tags: ["south"] })).statusCode).toBe(200);
    expect(await socket.nextMessage(3000)).toEqual({ type: "reread" });
  });

  it("is sent the routers its new view names that changed before it, within the scope only", async () => {
    const north = await buildDevice(t, domainId, { tags: ["north"] });
    const south = await buildDevice(t, domainId, { tags: ["south"] });
    const leaving = await buildDevice(t, domainId, { tags: ["north"] });
    const socket = await socketOf(operator, []);
    // The page read its list; the routers changed before it named them as its view (ADR 035 item 8).
    expect((await edit(south.id, { description: "south moved" })).statusCode).toBe(200);
    expect((await edit(north.id, { description: "north moved" })).statusCode).toBe(200);
    const seen: string[] = [];
    const next = async () => {
      const message = (await socket.nextMessage(3000)) as { type: string; content?: unknown[] };
      seen.push(JSON.stringify(message));
      return message;
    };
    // Its list shows north (a list of theirs never holds south's row).
    socket.sendJson({ type: "view", views: [{ kind: "devices", ids: [north.id] }] });
    let message = await next();
    while ((message.content?.length ?? 0) === 0) message = await next();
    expect(message).toMatchObject({
      type: "devices",
      action: "update",
      content: [{ _id: north.id, description: "north moved" }],
    });
    expect(seen.join("\n")).not.toContain(south.id);
    // A router the page read while it was theirs lost the tag before the view named it: read again.
    expect((await edit(leaving.id, { tags: ["south"] })).statusCode).toBe(200);
    socket.sendJson({ type: "view", views: [{ kind: "devices", ids: [north.id, leaving.id] }] });
    do message = await next();
    while (message.type !== "reread");
    expect(seen.join("\n")).not.toContain(leaving.ident);
  });

  it("gets live collects, alerts, remote sessions and commands of their routers, none of others", async () => {
    const north = await buildDevice(t, domainId, { tags: ["north"] });
    const south = await buildDevice(t, domainId, { tags: ["south"] });
    const socket = await socketOf(operator);
    const topic = domainTopic(domainId);
    const pair = (field: string, value: (device: typeof north) => unknown) =>
      [south, north].map((device) => ({ [field]: value(device), type: "modem" }));
    await t.bus.publish(topic, { type: "collects", content: pair("device_id", (d) => d.id) });
    await t.bus.publish(topic, {
      type: "alerts",
      content: pair("device", (d) => ({ _id: d.id, ident: d.ident })),
    });
    await t.bus.publish(topic, { type: "peers", content: pair("device_id", (d) => d.id) });
    for (const device of [south, north]) {
      const command = await t.app.inject({
        method: "POST",
        url: "/api/command/new",
        headers: { token: admin },
        payload: { type: "reboot", targets: { devices: [device.id] } },
      });
      expect(command.statusCode, command.body).toBe(200);
    }
    const seen: string[] = [];
    const kinds = new Set<string>();
    while (kinds.size < 4) {
      const message = (await socket.nextMessage(3000)) as { type: string };
      seen.push(JSON.stringify(message));
      if (["collects", "alerts", "peers", "commands"].includes(message.type)) {
        expect(JSON.stringify(message)).toContain(north.id);
        kinds.add(message.type);
      }
    }
    expect(seen.join("\n")).not.toContain(south.id);
  });

  it("streams a router's collects as soon as it is given their tag", async () => {
    const router = await buildDevice(t, domainId, { tags: ["south"] });
    const socket = await socketOf(operator);
    expect((await edit(router.id, { tags: ["south", "north"] })).statusCode).toBe(200);
    await t.bus.publish(domainTopic(domainId), { type: "collects", content: [{ device_id: router.id }] });
    for (;;) {
      const message = (await socket.nextMessage(3000)) as { type: string; content?: unknown[] };
      if (message.type === "collects") {
        expect(message.content).toEqual([{ device_id: router.id }]);
        break;
      }
    }
  });
});
