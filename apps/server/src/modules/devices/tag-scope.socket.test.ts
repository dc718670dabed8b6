import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 30, ADR 041: a tag-limited person's realtime socket receives pushes of their routers only,
// and a router they are shown that loses its tag makes the page read its list again at once.

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
});
