import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "pino";
import { BusLink, maskBusUrl, type NetworkBus, reconnectDelayMs } from "./bus-link";
import { encodeBusMessage, TopicFanout } from "./topic-fanout";

/** Options of the Redis bus; tests give each bus a channel prefix of its own. */
export interface RedisBusOptions {
  url: string;
  /** Prepended to every topic (`cellfleet:` by default), so other users of the server stay apart. */
  prefix?: string;
  log?: Logger;
}

/**
 * Both connections: no offline queue (a command while disconnected fails at once instead of
 * waiting in memory), nothing re-sent after a reconnect (at-most-once), a retry forever with backoff.
 */
const CONNECTION_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  autoResubscribe: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 2000,
  connectTimeout: 5000,
  retryStrategy: (times) => reconnectDelayMs(times),
};

/**
 * The bus over Redis pub/sub (ADR 008): at-most-once; one connection publishes, a second one
 * subscribes (a subscribed Redis connection can do nothing else), one SUBSCRIBE per topic and node.
 * After a reconnect the subscriber renews every topic that still has a handler; while either
 * connection is away, publishes are dropped and counted rather than queued.
 */
export function createRedisBus(options: RedisBusOptions): NetworkBus {
  const prefix = options.prefix ?? "cellfleet:";
  const log = options.log;
  const link = new BusLink("redis", maskBusUrl(options.url), log);
  const fanout = new TopicFanout(log);
  const publisher = new Redis(options.url, { ...CONNECTION_OPTIONS, connectionName: "cellfleet-pub" });
  const subscriber = new Redis(options.url, { ...CONNECTION_OPTIONS, connectionName: "cellfleet-sub" });
  let isClosed = false;

  const channelOf = (topic: string) => `${prefix}${topic}`;
  const topicOf = (channel: string) => (channel.startsWith(prefix) ? channel.slice(prefix.length) : null);

  const sendSubscribe = (topics: string[]) => {
    if (topics.length === 0 || subscriber.status !== "ready") return;
    subscriber.subscribe(...topics.map(channelOf)).catch((error: unknown) => {
      // The next "ready" renews every topic, so a failure here is only logged.
      log?.debug({ err: error, topics }, "bus subscribe failed; renewed on reconnect");
    });
  };
  const sendUnsubscribe = (topic: string) => {
    if (subscriber.status !== "ready") return;
    subscriber.unsubscribe(channelOf(topic)).catch((error: unknown) => {
      log?.debug({ err: error, topic }, "bus unsubscribe failed; dropped on reconnect");
    });
  };

  const updateLink = () => {
    if (isClosed) return;
    if (publisher.status === "ready" && subscriber.status === "ready") link.up();
    else link.down();
  };
  subscriber.on("ready", () => {
    sendSubscribe(fanout.topics());
    updateLink();
  });
  publisher.on("ready", updateLink);
  for (const connection of [publisher, subscriber]) {
    connection.on("close", updateLink);
    // Errors come with every failed retry; the link logs the outage once, so they go to debug.
    connection.on("error", (error) => {
      link.noteError(error);
      log?.debug({ err: error }, "bus connection error");
    });
  }
  subscriber.on("message", (channel: string, text: string) => {
    const topic = topicOf(channel);
    if (topic !== null) fanout.deliver(topic, text);
  });

  return {
    async publish(topic, message) {
      const text = encodeBusMessage(message);
      if (isClosed) return;
      if (!link.isConnected) {
        link.drop();
        return;
      }
      try {
        await publisher.publish(channelOf(topic), text);
      } catch (error) {
        link.drop();
        log?.debug({ err: error, topic }, "bus publish failed; dropped");
      }
    },
    subscribe(topic, handler) {
      if (isClosed) return () => {};
      if (fanout.add(topic, handler)) sendSubscribe([topic]);
      let isActive = true;
      return () => {
        if (!isActive) return;
        isActive = false;
        if (fanout.remove(topic, handler)) sendUnsubscribe(topic);
      };
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      link.close();
      fanout.clear();
      await Promise.all([closeConnection(publisher), closeConnection(subscriber)]);
    },
    stats: () => ({ ...link.stats }),
    waitUntilConnected: (timeoutMs) => link.waitUntilUp(timeoutMs),
  };
}

/** QUIT when connected (replies in flight arrive first), otherwise just stop retrying. */
async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === "ready") {
    try {
      await connection.quit();
      return;
    } catch {
      // Fall through to a hard disconnect.
    }
  }
  connection.disconnect();
}
