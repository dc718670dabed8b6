import { connect, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import type { Logger } from "pino";
import { BusLink, maskBusUrl, type NetworkBus, reconnectDelayMs } from "./bus-link";
import { encodeBusMessage, TopicFanout } from "./topic-fanout";

/** Options of the NATS bus; tests give each bus a subject prefix of its own. */
export interface NatsBusOptions {
  url: string;
  /** Prepended to every topic (`cellfleet.` by default), so other users of the server stay apart. */
  prefix?: string;
  log?: Logger;
}

/** Longest a publish waits for the server to confirm it has the message. */
const PUBLISH_CONFIRM_MS = 1000;

/** Resolves once the server answered a PING sent after everything before it, or after `ms`. */
async function confirmWithin(nc: NatsConnection, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    nc.flush().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** Turns `nats://user:pass@host:port` into the client's options (it wants credentials apart). */
function connectionOptions(url: string): { servers: string; user?: string; pass?: string; token?: string } {
  const parsed = new URL(url);
  const servers = `${parsed.hostname}:${parsed.port || "4222"}`;
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  if (user && pass) return { servers, user, pass };
  if (user) return { servers, token: user };
  return { servers };
}

/**
 * The bus over NATS core pub/sub (ADR 008): at-most-once, one NATS subscription per topic and node.
 * The client reconnects forever and renews its subscriptions itself; while it is away, publishes are
 * dropped and counted rather than buffered, so an outage holds no memory.
 */
export function createNatsBus(options: NatsBusOptions): NetworkBus {
  const prefix = options.prefix ?? "cellfleet.";
  const log = options.log;
  const maskedUrl = maskBusUrl(options.url);
  const link = new BusLink("nats", maskedUrl, log);
  const fanout = new TopicFanout(log);
  const subscriptions = new Map<string, Subscription>();
  let connection: NatsConnection | null = null;
  let isClosed = false;
  let outageStart = 0;
  let lastDelayAt = 0;

  // The client asks for a delay before each attempt but says nothing of how many came before: an
  // outage starts when it has not asked for a while, and the delay grows with the outage's age.
  const nextReconnectDelay = () => {
    const now = Date.now();
    if (now - lastDelayAt > 10_000) outageStart = now;
    lastDelayAt = now;
    return reconnectDelayMs(Math.floor((now - outageStart) / 1000) + 1);
  };

  const subjectOf = (topic: string) => {
    // A wildcard or a space would make NATS match other subjects than the one topic meant.
    if (/[\s*>]/.test(topic)) throw new Error(`bus topic "${topic}" may not hold spaces, * or >`);
    return `${prefix}${topic}`;
  };

  const subscribeOnServer = (nc: NatsConnection, topic: string) => {
    const subscription = nc.subscribe(subjectOf(topic), {
      callback: (error, msg) => {
        if (error) log?.warn({ err: error, topic }, "bus subscription error");
        else fanout.deliver(topic, msg.string());
      },
    });
    subscriptions.set(topic, subscription);
  };

  const watchStatus = async (nc: NatsConnection) => {
    for await (const status of nc.status()) {
      if (isClosed) return;
      if (status.type === "error") link.noteError(status.error);
      else if (status.type === "disconnect" || status.type === "staleConnection") link.down();
      else if (status.type === "reconnect") link.up();
    }
  };

  const connectUntilUp = async () => {
    // The first connection is tried here, forever and with backoff: the client itself only retries
    // once it has been connected. From then on it reconnects on its own (maxReconnectAttempts -1).
    for (let attempt = 1; !isClosed; attempt++) {
      try {
        const nc = await connect({
          ...connectionOptions(options.url),
          name: "cellfleet",
          maxReconnectAttempts: -1,
          reconnectDelayHandler: nextReconnectDelay,
          pingInterval: 10_000,
          maxPingOut: 2,
          timeout: 5000,
        });
        if (isClosed) {
          await nc.close();
          return;
        }
        connection = nc;
        for (const topic of fanout.topics()) subscribeOnServer(nc, topic);
        void watchStatus(nc);
        link.up();
        return;
      } catch (error) {
        link.noteError(error);
        if (attempt === 1)
          log?.warn(
            { bus: "nats", url: maskedUrl, err: error },
            "bus server unreachable; retrying, publishes are dropped until it answers",
          );
        // Unref'd: a bus still waiting for its server never holds a stopping process open.
        await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs(attempt)).unref());
      }
    }
  };
  void connectUntilUp();

  return {
    async publish(topic, message) {
      const subject = subjectOf(topic);
      const text = encodeBusMessage(message);
      const nc = connection;
      if (isClosed) return;
      if (!nc || !link.isConnected) {
        link.drop();
        return;
      }
      try {
        nc.publish(subject, text);
      } catch (error) {
        // Not an outage (that is checked above) but a message the server refuses, e.g. over max_payload.
        link.drop();
        log?.error({ err: error, topic, bytes: text.length }, "bus message could not be published; dropped");
        return;
      }
      // Wait (briefly) until the server has the message, so that a caller that answers a request
      // after publishing knows the other nodes are being told before its answer goes out.
      await confirmWithin(nc, PUBLISH_CONFIRM_MS);
    },
    subscribe(topic, handler) {
      subjectOf(topic);
      if (isClosed) return () => {};
      if (fanout.add(topic, handler) && connection) subscribeOnServer(connection, topic);
      let isActive = true;
      return () => {
        if (!isActive) return;
        isActive = false;
        if (!fanout.remove(topic, handler)) return;
        subscriptions.get(topic)?.unsubscribe();
        subscriptions.delete(topic);
      };
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      link.close();
      fanout.clear();
      subscriptions.clear();
      await connection?.close();
      connection = null;
    },
    stats: () => ({ ...link.stats }),
    waitUntilConnected: (timeoutMs) => link.waitUntilUp(timeoutMs),
  };
}
