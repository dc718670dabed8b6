import type { AddressInfo, Socket } from "node:net";
import type { ServerSocketMessage, SocketView } from "@cellfleet/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type WebSocket from "ws";
import { buildUser, signIn } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";
import { domainTopic } from "../bus/bus";

// Live views over real sockets (ADR 035): short flushes and small bounds, so tests are quick.
const HIGH_WATER = 16 * 1024;
const MAX_PENDING = 10;

let t: TestApp;
let socketUrl: string;
const openSockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({
    realtimeTimings: { flushIntervalMs: 40, highWaterBytes: HIGH_WATER, maxPendingChanges: MAX_PENDING },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/`;
});
afterEach(() => {
  for (const socket of openSockets.splice(0)) socket.ws.terminate();
});
afterAll(async () => {
  await t.close();
});

/** A socket of a new user of `domainId` (or a new domain) that named `views` in its hello. */
async function viewing(views: SocketView[], domainId?: string) {
  const user = await buildUser(t, { domainId });
  const socket = await openTestSocket(socketUrl);
  openSockets.push(socket);
  socket.sendJson({ token: await signIn(t.app, user), views });
  expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
  return { domainId: user.domainId ?? "", socket };
}

const device = (id: string, fields: Record<string, unknown> = {}) => ({
  _id: id,
  ident: `r-${id}`,
  status: "online",
  last_contact: 1,
  ...fields,
});
const publish = (domainId: string, message: ServerSocketMessage) =>
  t.bus.publish(domainTopic(domainId), message);

describe("live views over the socket", () => {
  it("sends a device page's socket nothing of another device's report", async () => {
    const page = await viewing([{ kind: "device", id: "dev-a" }]);
    await publish(page.domainId, { type: "devices", action: "update", content: [device("dev-b")] });
    await publish(page.domainId, { type: "collects", content: [{ device_id: "dev-b", type: "modems" }] });
    await expect(page.socket.nextMessage(300)).rejects.toThrow("no message arrived in time");
    await publish(page.domainId, { type: "devices", action: "update", content: [device("dev-a")] });
    expect(await page.socket.nextMessage()).toEqual({
      type: "devices",
      action: "update",
      content: [device("dev-a")],
    });
  });

  it("sends a list socket its visible rows' changes and the totals mark, and follows a new view", async () => {
    const list = await viewing([{ kind: "devices", ids: ["a", "b"] }]);
    await publish(list.domainId, {
      type: "devices",
      action: "update",
      content: [device("a"), device("c"), device("d")],
    });
    expect(await list.socket.nextMessage()).toEqual({
      type: "devices",
      action: "update",
      totals: true,
      content: [device("a")],
    });
    // The next push of the same row carries only what changed.
    await publish(list.domainId, {
      type: "devices",
      action: "update",
      content: [device("a", { status: "critical" })],
    });
    expect(await list.socket.nextMessage()).toEqual({
      type: "devices",
      action: "update",
      totals: true,
      content: [{ _id: "a", status: "critical" }],
    });
    // Page 2: c and d, pushed before this socket viewed them (its page read them first): the new
    // view is sent their rows whole at once, with no push after it.
    list.socket.sendJson({ type: "view", views: [{ kind: "devices", ids: ["c", "d"] }] });
    expect(await list.socket.nextMessage()).toEqual({
      type: "devices",
      action: "update",
      totals: true,
      content: [device("c"), device("d")],
    });
    // Then d's changes only; a is no longer sent.
    await publish(list.domainId, {
      type: "devices",
      action: "update",
      content: [device("a", { status: "warning" }), device("d", { status: "warning" })],
    });
    expect(await list.socket.nextMessage()).toEqual({
      type: "devices",
      action: "update",
      totals: true,
      content: [{ _id: "d", status: "warning" }],
    });
  });

  it("sends a view the changes made between its page's read and its view, of its domain only", async () => {
    const page = await viewing([{ kind: "device", id: "gap-a" }]);
    const other = await viewing([]);
    // The device page of gap-b reads its row; then the router reports, and goes, before the view names them.
    await publish(page.domainId, {
      type: "devices",
      action: "update",
      content: [device("gap-b", { status: "critical" }), device("gap-c")],
    });
    await publish(page.domainId, { type: "devices", action: "delete", content: [{ _id: "gap-c" }] });
    page.socket.sendJson({
      type: "view",
      views: [
        { kind: "device", id: "gap-b" },
        { kind: "devices", ids: ["gap-c", "gap-never"] },
      ],
    });
    const frames = [await page.socket.nextMessage(), await page.socket.nextMessage()];
    expect(frames).toEqual([
      { type: "devices", action: "delete", content: [{ _id: "gap-c" }] },
      {
        type: "devices",
        action: "update",
        totals: true,
        content: [device("gap-b", { status: "critical" })],
      },
    ]);
    // Another domain's socket naming the same ids is sent nothing of them.
    other.socket.sendJson({ type: "view", views: [{ kind: "devices", ids: ["gap-b", "gap-c"] }] });
    await expect(other.socket.nextMessage(300)).rejects.toThrow("no message arrived in time");
  });

  it("does not send a new events view the events pushed before it (their read state may have changed)", async () => {
    const page = await viewing([{ kind: "device", id: "ev-a" }]);
    await publish(page.domainId, {
      type: "alerts",
      content: [{ _id: "gap-e1", device: { _id: "ev-b", ident: "r-ev-b" } }],
    });
    expect(await page.socket.nextMessage()).toEqual({ type: "alerts", content: [] });
    page.socket.sendJson({ type: "view", views: [{ kind: "events" }] });
    await expect(page.socket.nextMessage(300)).rejects.toThrow("no message arrived in time");
  });

  it("coalesces many reports of one device within the window into one frame with the latest", async () => {
    const page = await viewing([{ kind: "device", id: "dev-c" }]);
    const reports = Array.from({ length: 20 }, (_, n) => [
      publish(page.domainId, {
        type: "devices",
        action: "update",
        content: [device("dev-c", { last_contact: n })],
      }),
      publish(page.domainId, { type: "collects", content: [{ device_id: "dev-c", type: "modems", seq: n }] }),
    ]);
    await Promise.all(reports.flat());
    // 40 pushes within a window or two (a busy machine may split them): a frame per kind and window.
    const frames: { type: string; content: { last_contact?: number; seq?: number }[] }[] = [];
    const hasLatest = () =>
      frames.some((frame) => frame.type === "devices" && frame.content[0]?.last_contact === 19) &&
      frames.some((frame) => frame.type === "collects" && frame.content[0]?.seq === 19);
    while (!hasLatest()) frames.push((await page.socket.nextMessage()) as (typeof frames)[number]);
    expect(frames.length).toBeLessThanOrEqual(4);
    for (const frame of frames) expect(frame.content).toHaveLength(1);
    await expect(page.socket.nextMessage(300)).rejects.toThrow("no message arrived in time");
  });

  it("sends a device page each later report of its device, in its own frame", async () => {
    const page = await viewing([{ kind: "device", id: "dev-r" }]);
    for (const seq of [1, 2, 3]) {
      await publish(page.domainId, {
        type: "collects",
        content: [{ device_id: "dev-r", type: "modems", seq, data: { operator: `op ${seq}` } }],
      });
      expect(await page.socket.nextMessage()).toEqual({
        type: "collects",
        content: [{ device_id: "dev-r", type: "modems", seq, data: { operator: `op ${seq}` } }],
      });
    }
  });

  it("takes views that are not valid as none, and still accepts the token", async () => {
    const ids = Array.from({ length: 501 }, (_, n) => `id-${n}`);
    const page = await viewing([{ kind: "devices", ids }]);
    await publish(page.domainId, { type: "devices", action: "update", content: [device("id-1")] });
    await publish(page.domainId, { type: "approval", content: [{ marker: true }] });
    expect(await page.socket.nextMessage()).toEqual({ type: "approval", content: [{ marker: true }] });
    await expect(page.socket.nextMessage(300)).rejects.toThrow("no message arrived in time");
  });

  it("keeps each domain's views to that domain", async () => {
    const mine = await viewing([{ kind: "events" }]);
    const theirs = await viewing([{ kind: "events" }, { kind: "device", id: "dev-x" }]);
    await publish(mine.domainId, {
      type: "alerts",
      content: [{ _id: "e1", device: { _id: "dev-x", ident: "r-x" } }],
    });
    expect(await mine.socket.nextMessage()).toMatchObject({ type: "alerts", content: [{ _id: "e1" }] });
    await expect(theirs.socket.nextMessage(300)).rejects.toThrow("no message arrived in time");
  });

  it("gives a socket whose peer does not read a reread mark, with the server's buffer bounded", async () => {
    const slow = await viewing([{ kind: "events" }]);
    const tcp = (slow.socket.ws as WebSocket & { _socket: Socket })._socket;
    tcp.pause();
    const big = "x".repeat(200_000);
    let published = 0;
    let largestBuffered = 0;
    const server = (t.app as unknown as { websocketServer: { clients: Set<WebSocket> } }).websocketServer;
    for (let group = 0; group < 25; group += 1) {
      await Promise.all(
        Array.from({ length: 4 }, (_, n) =>
          publish(slow.domainId, { type: "alerts", content: [{ _id: `e${group}-${n}`, device: null, big }] }),
        ),
      );
      published += 4 * big.length;
      await new Promise((resolve) => setTimeout(resolve, 60));
      for (const client of server.clients) largestBuffered = Math.max(largestBuffered, client.bufferedAmount);
    }
    expect(server.clients.size).toBeGreaterThan(0);
    // 20 MB offered; what the server holds stays near the bound (one flush's frames past it).
    expect(published).toBeGreaterThan(19_000_000);
    expect(largestBuffered).toBeLessThan(HIGH_WATER + 4 * 210_000);
    tcp.resume();
    let message = (await slow.socket.nextMessage()) as { type: string };
    while (message.type !== "reread") message = (await slow.socket.nextMessage()) as { type: string };
    // Back in step: the next event arrives as usual.
    await publish(slow.domainId, { type: "alerts", content: [{ _id: "late", device: null }] });
    expect(await slow.socket.nextMessage()).toEqual({
      type: "alerts",
      content: [{ _id: "late", device: null }],
    });
  });
});
