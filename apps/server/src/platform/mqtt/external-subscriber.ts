import { PROTOCOL_TOPIC_ROOT } from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { redactUrl } from "../redact-url";
import type { GatewayCounters } from "./counters";
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

/** Every upward topic of protocol v1, with or without the shared-subscription group. */
export function reportsFilter(shared: boolean, group = "cellfleet"): string {
  const reports = `${PROTOCOL_TOPIC_ROOT}/+/#`;
  return shared ? `$share/${group}/${reports}` : reports;
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
  client.handleMessage = (packet, callback) => {
    const payload = typeof packet.payload === "string" ? Buffer.from(packet.payload) : packet.payload;
    const commit = acceptPublished(sink, counters, packet.topic, payload).then(
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
  let filter = reportsFilter(shared, options.shareGroup);
  const granted = await client.subscribeAsync(filter, { qos: 1 });
  if (shared && granted.some((grant) => grant.qos === 128)) {
    // The broker has no shared subscriptions: one node takes every report.
    filter = reportsFilter(false);
    await client.subscribeAsync(filter, { qos: 1 });
  }
  log.info({ filter }, "mqtt subscribed");
  return {
    client,
    async close() {
      await client.endAsync();
    },
  };
}
