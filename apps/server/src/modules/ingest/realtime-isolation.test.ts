import type { AddressInfo } from "node:net";
import { collectTopic } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "./ingest.runtime";
import {
  connectDevice,
  insertDevice,
  modemsReport,
  publishJson,
  startTestIngest,
} from "./ingest.test-support";

let t: TestApp;
let runtime: DeviceIngest;
let socketUrl: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/`;
  runtime = await startTestIngest(t);
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await runtime.close();
  await t.close();
});

async function signedInSocket(role: 2 | 4) {
  const user = await buildUser(t, { role });
  const socket = await openTestSocket(socketUrl);
  sockets.push(socket);
  socket.sendJson({ token: await signIn(t.app, user) });
  expect(await socket.nextMessage()).toMatchObject({ type: "ready", domain_id: user.domainId });
  return { user, socket };
}

describe("realtime pushes of ingest", () => {
  it("reach the sockets of the device's domain within a second, and no other domain's", async () => {
    const mine = await signedInSocket(4);
    const theirs = await signedInSocket(2);
    const device = await insertDevice(t, mine.user.domainId ?? "");
    const client = await connectDevice(runtime.gateway.url, device.ident, device.token ?? undefined);
    try {
      const started = Date.now();
      await publishJson(client, collectTopic(device.ident, "modems"), modemsReport(1, 21));
      type Pushed = { type: string; content: unknown[] };
      // The connection's own change of the row may come as a push of its own before the report's
      // (or be coalesced with it, as the machine's speed decides), so the pushes are read until the
      // report's stored row arrives.
      const pushed: Pushed[] = [];
      while (!pushed.some((message) => message.type === "collects")) {
        const left = 1000 - (Date.now() - started);
        pushed.push((await mine.socket.nextMessage(Math.max(left, 1))) as Pushed);
      }
      expect(Date.now() - started).toBeLessThan(1000);
      // Each push carries the row's fields that changed; together they make the row as it is now.
      const row = Object.assign(
        {},
        ...pushed.filter((message) => message.type === "devices").flatMap((message) => message.content),
      );
      expect(row).toMatchObject({ _id: device.id, ident: device.ident, status: "online" });
      expect(pushed.at(-1)?.content[0]).toMatchObject({ device_id: device.id, type: "modems", seq: 1 });
      await expect(theirs.socket.nextMessage(500)).rejects.toThrow("no message arrived in time");
    } finally {
      await client.endAsync(true);
    }
  });

  it("reach a device page's socket for its device only, not for another device's report (ADR 035)", async () => {
    const page = await buildUser(t, { role: 4 });
    const a = await insertDevice(t, page.domainId ?? "");
    const b = await insertDevice(t, page.domainId ?? "");
    const socket = await openTestSocket(socketUrl);
    sockets.push(socket);
    socket.sendJson({ token: await signIn(t.app, page), views: [{ kind: "device", id: a.id }] });
    expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
    const clientA = await connectDevice(runtime.gateway.url, a.ident, a.token ?? undefined);
    const clientB = await connectDevice(runtime.gateway.url, b.ident, b.token ?? undefined);
    try {
      // A's connection comes as a change of A's row (ADR 032); B's, not viewed, does not come.
      expect(await socket.nextMessage(5000)).toMatchObject({
        type: "devices",
        content: [expect.objectContaining({ _id: a.id, connected: true })],
      });
      await publishJson(clientB, collectTopic(b.ident, "modems"), modemsReport(1, 21));
      await expect(socket.nextMessage(1000)).rejects.toThrow("no message arrived in time");
      await publishJson(clientA, collectTopic(a.ident, "modems"), modemsReport(1, 21));
      type Pushed = { type: string; content: Record<string, unknown>[] };
      const pushed = [(await socket.nextMessage(2000)) as Pushed, (await socket.nextMessage(2000)) as Pushed];
      const byType = Object.fromEntries(pushed.map((message) => [message.type, message]));
      expect(byType.devices?.content).toEqual([expect.objectContaining({ _id: a.id, status: "online" })]);
      expect(byType.collects?.content).toEqual([
        expect.objectContaining({ device_id: a.id, type: "modems", seq: 1 }),
      ]);
      // A later report of the same router reaches the page too (issue 28's browser test found it did not).
      await publishJson(clientA, collectTopic(a.ident, "modems"), modemsReport(2, 25));
      const later: Pushed[] = [];
      for (;;) {
        const message = (await socket.nextMessage(3000)) as Pushed;
        later.push(message);
        if (message.type === "collects") break;
      }
      expect(later.at(-1)?.content).toEqual([expect.objectContaining({ device_id: a.id, seq: 2 })]);
      // One that leaves the router's row as it is (the same signal, within the contact granularity:
      // the test clock stands still) is still news for the page: its modems changed (the browser
      // test's second report, which did not show).
      const second = modemsReport(3, 25);
      const renamed = {
        ...second,
        modems: second.modems.map((modem) => ({ ...modem, operator: "Beeline" })),
      };
      await publishJson(clientA, collectTopic(a.ident, "modems"), renamed);
      const unchangedRow = (await socket.nextMessage(3000)) as Pushed;
      expect(unchangedRow).toEqual({
        type: "collects",
        content: [
          expect.objectContaining({
            device_id: a.id,
            seq: 3,
            data: expect.objectContaining({ modems: [expect.objectContaining({ operator: "Beeline" })] }),
          }),
        ],
      });
    } finally {
      await clientA.endAsync(true);
      await clientB.endAsync(true);
    }
  });
});
