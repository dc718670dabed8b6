import type { AddressInfo } from "node:net";
import { type ServerSocketMessage, SOCKET_CLOSE } from "@cellfleet/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildPolicy, buildUser, signIn } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";
import { domainTopic } from "../bus/bus";
import { domainMessageFrame, domainMessageOf } from "./socket.routes";

let t: TestApp;
let socketUrl: string;
const openSockets: TestSocket[] = [];

beforeAll(async () => {
  // The periodic re-check is slow here, so a logout must close sockets through the bus on its own.
  t = await createTestApp({ realtimeTimings: { helloTimeoutMs: 300, recheckIntervalMs: 60_000 } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = t.app.server.address() as AddressInfo;
  socketUrl = `ws://127.0.0.1:${port}/api/ws/`;
});
afterEach(() => {
  for (const socket of openSockets.splice(0)) socket.ws.terminate();
});
afterAll(async () => {
  await t.close();
});

async function connect(): Promise<TestSocket> {
  const socket = await openTestSocket(socketUrl);
  openSockets.push(socket);
  return socket;
}

/** Signs a new user in and opens a socket that got `ready`. */
async function connectSignedIn(options: Parameters<typeof buildUser>[1] = {}) {
  const user = await buildUser(t, options);
  const token = await signIn(t.app, user);
  const socket = await connect();
  socket.sendJson({ token });
  expect(await socket.nextMessage()).toEqual({ type: "ready", domain_id: user.domainId });
  return { user, token, socket };
}

describe("GET /api/ws/", () => {
  it("answers ready with the domain once the first message carries a valid token", async () => {
    const { socket } = await connectSignedIn();
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });

  it("closes with 4002 after an ended message when the token is refused", async () => {
    const socket = await connect();
    socket.sendJson({ token: "not-a-real-token" });
    expect(await socket.nextMessage()).toEqual({ type: "session", state: "ended", code: "TOKEN_INVALID" });
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.tokenRejected);
  });

  it("closes with 4002 when the first message is not a hello", async () => {
    const socket = await connect();
    socket.ws.send("hello there");
    expect(await socket.nextMessage()).toEqual({ type: "session", state: "ended", code: "TOKEN_NOT_GIVEN" });
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.tokenRejected);
  });

  it("closes with 4003 when no hello arrives in time", async () => {
    const socket = await connect();
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.helloTimeout);
  });

  it("sends the ended message and closes with 4001 when the session logs out", async () => {
    const { token, socket } = await connectSignedIn();
    const response = await t.app.inject({ method: "POST", url: "/api/logout/", headers: { token } });
    expect(response.statusCode).toBe(200);
    expect(await socket.nextMessage()).toEqual({ type: "session", state: "ended", code: "TOKEN_INVALID" });
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
  });

  it("delivers a domain's bus messages to that domain's sockets only", async () => {
    const first = await connectSignedIn();
    const second = await connectSignedIn();
    const forFirst: ServerSocketMessage = {
      type: "devices",
      action: "update",
      content: [{ ident: "first" }],
    };
    const forSecond: ServerSocketMessage = { type: "alerts", content: [{ text: "second" }] };
    await t.bus.publish(domainTopic(first.user.domainId ?? ""), forFirst);
    await t.bus.publish(domainTopic(second.user.domainId ?? ""), forSecond);
    // Each socket's first message is its own domain's: the other domain's never arrived before it.
    expect(await first.socket.nextMessage()).toEqual(forFirst);
    expect(await second.socket.nextMessage()).toEqual(forSecond);
  });

  it("sends one domain message to every socket of the domain", async () => {
    const first = await connectSignedIn();
    const second = await connectSignedIn({ domainId: first.user.domainId ?? undefined });
    const message: ServerSocketMessage = { type: "devices", action: "update", content: [{ ident: "both" }] };
    await t.bus.publish(domainTopic(first.user.domainId ?? ""), message);
    expect(await first.socket.nextMessage()).toEqual(message);
    expect(await second.socket.nextMessage()).toEqual(message);
  });

  it("sends nothing of the domain to a person held on the profile page for a second factor", async () => {
    const colleague = await connectSignedIn();
    const domainId = colleague.user.domainId ?? "";
    const policyId = await buildPolicy(t, domainId, { second_factor_required_for: "everybody" });
    const held = await buildUser(t, { domainId, policyId });
    const token = await signIn(t.app, held);
    const socket = await connect();
    socket.sendJson({ token });
    expect(await socket.nextMessage()).toEqual({ type: "ready", domain_id: domainId });
    const message: ServerSocketMessage = { type: "alerts", content: [{ text: "not for the held" }] };
    await t.bus.publish(domainTopic(domainId), message);
    expect(await colleague.socket.nextMessage()).toEqual(message);
    await expect(socket.nextMessage(300)).rejects.toThrow("no message arrived in time");
  });

  it("drops bus messages that are not socket messages", async () => {
    const { user, socket } = await connectSignedIn();
    const valid: ServerSocketMessage = { type: "collects", content: [] };
    await t.bus.publish(domainTopic(user.domainId ?? ""), { type: "nonsense", secret: 1 });
    await t.bus.publish(domainTopic(user.domainId ?? ""), valid);
    expect(await socket.nextMessage()).toEqual(valid);
  });
});

describe("GET /api/ws/ periodic re-check", () => {
  let fast: TestApp;
  let fastUrl: string;
  beforeAll(async () => {
    fast = await createTestApp({ realtimeTimings: { recheckIntervalMs: 100 } });
    await fast.app.listen({ port: 0, host: "127.0.0.1" });
    fastUrl = `ws://127.0.0.1:${(fast.app.server.address() as AddressInfo).port}/api/ws/`;
  });
  afterAll(async () => {
    await fast.close();
  });

  it("closes with 4001 when the session has been idle longer than the policy allows", async () => {
    const policyId = await buildPolicy(fast, null, { inactivity_minutes: 5 });
    const user = await buildUser(fast, { policyId });
    const socket = await openTestSocket(fastUrl);
    openSockets.push(socket);
    socket.sendJson({ token: await signIn(fast.app, user) });
    expect(await socket.nextMessage()).toEqual({ type: "ready", domain_id: user.domainId });
    fast.clock.advanceMinutes(6);
    expect(await socket.nextMessage()).toEqual({
      type: "session",
      state: "ended",
      code: "INACTIVITY_TIMEOUT",
    });
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
  });
});

describe("domainMessageOf and domainMessageFrame", () => {
  it("validates a message object once, and encodes it once for all its sockets", () => {
    const message = { type: "collects", content: [{ n: 1 }] };
    const valid = domainMessageOf(message);
    expect(valid).toBe(message);
    const frame = domainMessageFrame(valid as ServerSocketMessage);
    expect(JSON.parse(frame.toString())).toEqual(message);
    // The same object again (the bus hands every subscriber the same copy): the first buffer.
    message.content.push({ n: 2 });
    expect(domainMessageFrame(valid as ServerSocketMessage)).toBe(frame);
  });

  it("answers null for what is not a domain message, a session message included", () => {
    expect(domainMessageOf({ type: "nonsense" })).toBeNull();
    expect(domainMessageOf({ type: "session", state: "ended", code: "X" })).toBeNull();
    expect(domainMessageOf(null)).toBeNull();
    expect(domainMessageOf("text")).toBeNull();
  });
});
