import { PROTOCOL_TOPIC_ROOT } from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { redactUrl } from "../redact-url";
import type { GatewayCounters } from "./counters";
import { createNotifier } from "./notices";
import { acceptPublished, type ReportSink } from "./reports";

/** What the external-broker subscriber is built from. */
export interface ExternalSubscriberOptions {
  url: string;
  /** Stable per server node, so the broker keeps this node's session (and queued reports) while it is down. */
  clientId: string;
  sink: ReportSink;
  counters: GatewayCounters;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /**
   * Subscribe through the shared group `$share/cellfleet/…` so N nodes split the load (default
   * false). Mosquitto queues nothing for a shared subscription while its members are offline, so
   * with one node the plain subscription is the one that keeps reports across a restart.
   */
  shared?: boolean;
  /** The shared subscription group (default `cellfleet`); tests use one of their own. */
  shareGroup?: string;
}

/** A connected subscriber. */
export interface ExternalSubscriber {
  client: MqttClient;
  close(): Promise<void>;
}

/**
 * What the broker must let the server's account subscribe to (its ACL), with or without the
 * shared-subscription group: every topic of protocol v1. The server subscribes to the upward part
 * only ({@link reportsFilters}).
 */
export function reportsFilter(shared: boolean, group = "cellfleet"): string {
  const reports = `${PROTOCOL_TOPIC_ROOT}/+/#`;
  return shared ? `$share/${group}/${reports}` : reports;
}

/**
 * The upward topics of protocol v1 the server subscribes to: hello, every collect type (a newer
 * agent's too, so it is told `unsupported_topic`), events and command statuses. Never the command
 * and notice topics the server publishes itself, so it does not receive its own messages back
 * (MQTT 3.1.1 has no "no local"; docs/device-protocol.md 13).
 */
export function reportsFilters(shared: boolean, group = "cellfleet"): string[] {
  const upward = ["hello", "collect/#", "event/#", "command/+/#"].map(
    (rest) => `${PROTOCOL_TOPIC_ROOT}/+/${rest}`,
  );
  return shared ? upward.map((filter) => `$share/${group}/${filter}`) : upward;
}

/**
 * What a node's persistent session may still hold and this node no longer wants: the other mode's
 * filters (MQTT_SHARED_SUBSCRIPTION switched) and the one broad filter of earlier versions, which
 * also brought back the server's own commands. Unsubscribed at every start.
 */
function unwantedFilters(shared: boolean, group: string): string[] {
  return [...reportsFilters(!shared, group), reportsFilter(false), reportsFilter(true, group)];
}

type SendPacket = (packet: { cmd: string; messageId?: number }, cb?: () => void, ...rest: unknown[]) => void;

/**
 * Subscribes to an external broker (Mosquitto, EMQX) with QoS 1 and a persistent session, and
 * acknowledges each report to the broker only after it is committed, so the broker redelivers what
 * a killed server never stored. mqtt.js handles incoming publishes one at a time and sends the
 * PUBACK when handleMessage calls back; to let a whole batch be in flight, handleMessage calls back
 * at once and the PUBACK itself is held (by message id) until the commit.
 */
export async function startExternalSubscriber(
  options: ExternalSubscriberOptions,
): Promise<ExternalSubscriber> {
  const { counters, sink, log } = options;
  const shared = options.shared ?? false;
  const client = mqtt.connect(options.url, {
    clientId: options.clientId,
    clean: false,
    protocolVersion: 4,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    // Redelivered packets after a reconnect are deduplicated by seq in ingest, not by the client.
    resubscribe: true,
  });
  const held = new Map<number, Promise<boolean>>();
  const internal = client as unknown as { _sendPacket: SendPacket };
  const sendPacket = internal._sendPacket.bind(client);
  internal._sendPacket = (packet, cb, ...rest) => {
    const commit =
      packet.cmd === "puback" && packet.messageId !== undefined ? held.get(packet.messageId) : undefined;
    if (!commit) return sendPacket(packet, cb, ...rest);
    held.delete(packet.messageId as number);
    cb?.();
    // A PUBACK belongs to the connection the message came on: after a reconnect the broker may reuse
    // the id for another message, which must not be acknowledged by this one's commit.
    const stream = client.stream;
    void commit.then((stored) => {
      if (client.stream !== stream) return;
      if (stored) sendPacket(packet, undefined, ...rest);
      // Not stored: no PUBACK; drop the connection so the broker redelivers from the session.
      else stream.destroy();
    });
  };
  // Notices go through the broker like commands, QoS 0 (docs/device-protocol.md 4.6).
  const notifier = createNotifier((topic, payload) => client.publish(topic, payload, { qos: 0 }));
  client.handleMessage = (packet, callback) => {
    const payload = typeof packet.payload === "string" ? Buffer.from(packet.payload) : packet.payload;
    const commit = acceptPublished(sink, counters, packet.topic, payload, undefined, notifier).then(
      () => true,
      (error: unknown) => {
        counters.refuse("ingest_failed", { topic: packet.topic, detail: String(error) });
        return false;
      },
    );
    if (packet.qos === 1 && packet.messageId !== undefined) held.set(packet.messageId, commit);
    // Read on only while ingest has room: this is the backpressure towards the broker.
    void sink.waitForRoom().then(() => callback());
  };
  let isReconnect = false;
  client.on("connect", (connack) => {
    log.info({ url: redactUrl(options.url), clientId: options.clientId }, "mqtt connected");
    // What can be checked of the broker's settings: after a reconnect it must still hold our
    // session, or whatever was published meanwhile is gone (persistence off, session expired).
    if (isReconnect && !connack.sessionPresent) {
      log.warn(
        { url: redactUrl(options.url), clientId: options.clientId },
        "the broker kept no session for this server: reports published while it was disconnected may be lost (docs/operations.md, Mosquitto)",
      );
    }
    isReconnect = true;
  });
  client.on("error", (error) => log.warn({ err: error }, "mqtt client error"));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`MQTT_URL ${redactUrl(options.url)}: no connection within 10 s`)),
      10_000,
    );
    client.once("connect", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const group = options.shareGroup ?? "cellfleet";
  let isShared = shared;
  let filters = reportsFilters(isShared, group);
  const isRefused = await client.subscribeAsync(filters, { qos: 1 }).then(
    (granted) => granted.some((grant) => grant.qos === 128),
    (error: unknown) => {
      if (!shared) throw error;
      return true;
    },
  );
  if (isRefused) {
    // The broker has no shared subscriptions: one node takes every report.
    isShared = false;
    filters = reportsFilters(false);
    await client.subscribeAsync(filters, { qos: 1 });
  }
  // Only after the wanted ones hold, so no report falls between: a copy meanwhile is a repeat.
  await client.unsubscribeAsync(unwantedFilters(isShared, group));
  log.info({ filters }, "mqtt subscribed");
  return {
    client,
    async close() {
      await client.endAsync();
    },
  };
}
