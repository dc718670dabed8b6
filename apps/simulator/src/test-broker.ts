import { createServer, type Server } from "node:net";
import { canDevicePublish, canDeviceSubscribe, verifyDeviceToken } from "@cellfleet/contract";
import { Aedes, type AuthenticateError } from "aedes";

// Test helpers: an embedded Aedes broker that authenticates devices by their derived token and
// lets each publish and subscribe only under its own ident, as the server's gateway will.

/** A message the broker accepted from a device. */
export interface Received {
  clientId: string;
  topic: string;
  payload: Buffer;
}

/** A running test broker. */
export interface TestBroker {
  port: number;
  url: string;
  broker: Aedes;
  received: Received[];
  /** Idents whose CONNECT was refused. */
  refused: string[];
  /** While true, PUBLISHes are held before authorisation, so their PUBACKs wait. */
  hold: boolean;
  /** Publishes held so far and not released, with their payloads. */
  held: Array<{ payload: Buffer; release: () => void }>;
  releaseHeld(): void;
  /** Publishes to a device as the server would. */
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a broker on `port` (0 for a free one) that knows the devices in `keys` (ident → 64-hex key). */
export async function startTestBroker(keys: ReadonlyMap<string, string>, port = 0): Promise<TestBroker> {
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const ident = client.id;
      const key = keys.get(ident);
      const check =
        key !== undefined && username === ident && password !== undefined
          ? verifyDeviceToken(ident, key, password.toString("utf8"))
          : Promise.resolve(false);
      void check.then((ok) => {
        if (ok) return done(null, true);
        state.refused.push(ident);
        const error = new Error("bad username or password") as AuthenticateError;
        error.returnCode = 4 as AuthenticateError["returnCode"];
        done(error, null);
      });
    },
    authorizePublish: (client, packet, callback) => {
      if (client === null) return callback(null);
      if (!canDevicePublish(client.id, packet.topic)) return callback(new Error("topic not allowed"));
      if (!state.hold) return callback(null);
      state.held.push({ payload: Buffer.from(packet.payload), release: () => callback(null) });
    },
    authorizeSubscribe: (client, subscription, callback) => {
      if (canDeviceSubscribe(client.id, subscription.topic)) callback(null, subscription);
      else callback(new Error("subscription not allowed"));
    },
  });
  broker.on("publish", (packet, client) => {
    if (client)
      state.received.push({ clientId: client.id, topic: packet.topic, payload: Buffer.from(packet.payload) });
  });
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : port;
  const state: TestBroker = {
    port: boundPort,
    url: `mqtt://127.0.0.1:${boundPort}`,
    broker,
    received: [],
    refused: [],
    hold: false,
    held: [],
    releaseHeld() {
      const held = state.held.splice(0);
      for (const entry of held) entry.release();
    },
    publish(topic, payload) {
      return new Promise<void>((resolve, reject) =>
        broker.publish(
          { cmd: "publish", topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    },
    async close() {
      state.hold = false;
      state.held.splice(0);
      await Promise.all([
        new Promise<void>((resolve) => broker.close(() => resolve())),
        new Promise<void>((resolve) => server.close(() => resolve())),
      ]);
    },
  };
  return state;
}

/** Waits until `check` is true, polling every 10 ms; fails with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The JSON payloads a broker received on topics ending with `suffix`, parsed. */
export function receivedOn(broker: TestBroker, suffix: string): Array<Record<string, unknown>> {
  return broker.received
    .filter((message) => message.topic.endsWith(suffix))
    .map((message) => JSON.parse(message.payload.toString("utf8")) as Record<string, unknown>);
}
