import type { MqttClient } from "mqtt";
import type { InflightLimit } from "./inflight";

/** A message ready to publish: topic and JSON payload, its `seq` already assigned. */
export interface Outgoing {
  topic: string;
  payload: string;
}

/** Options of an {@link Outbox}. */
export interface OutboxOptions {
  /** Most unacknowledged publishes of this outbox. */
  maxInflight: number;
  /** A bound shared with other outboxes (the fleet's). */
  shared?: InflightLimit;
  /** Most messages waiting; beyond it the oldest collect (else the oldest message) is dropped. */
  maxQueued: number;
  onAcked?: (item: Outgoing) => void;
}

/** Counters of an outbox. */
export interface OutboxStats {
  /** Publishes handed to MQTT, counting a message again when it is sent on a new connection. */
  published: number;
  acked: number;
  /** Messages whose connection ended before their PUBACK, queued to go again. */
  retried: number;
  dropped: number;
  inflight: number;
  peakInflight: number;
  queued: number;
}

/**
 * The delivery rules of docs/device-protocol.md section 5.2 for one device: QoS 1 publishes within an
 * in-flight window (its own and a shared one), every message kept until its PUBACK, what a dropped
 * connection had in flight sent again first on the next one, and a bounded queue while offline.
 */
export class Outbox {
  private client: MqttClient | null = null;
  private queue: Outgoing[] = [];
  private retry: Outgoing[] = [];
  /** Sent on the current connection and not yet acknowledged, by a per-publish number. */
  private readonly inflight = new Map<number, Outgoing>();
  private publishNumber = 0;
  private waitingForShared = false;
  private readonly counters = { published: 0, acked: 0, retried: 0, dropped: 0, peakInflight: 0 };

  constructor(private readonly options: OutboxOptions) {}

  get stats(): OutboxStats {
    return {
      ...this.counters,
      inflight: this.inflight.size,
      queued: this.queue.length + this.retry.length,
    };
  }

  /**
   * A connection is up: `first` goes out before anything else (hello), then what an earlier
   * connection left unacknowledged, then what queued up meanwhile.
   */
  connected(client: MqttClient, first: Outgoing[]): void {
    this.client = client;
    this.queue = [...first, ...this.retry, ...this.queue];
    this.retry = [];
    this.pump();
  }

  /**
   * The connection is gone for good (reboot, stop): what it had in flight is kept to go again.
   * A connection mqtt.js re-establishes by itself needs no call: mqtt.js resends its own in-flight.
   */
  disconnected(): void {
    this.client = null;
    for (const item of this.inflight.values()) {
      this.retry.push(item);
      this.counters.retried++;
      this.options.shared?.release();
    }
    this.inflight.clear();
  }

  /** Queues a message and sends what the windows allow. */
  push(item: Outgoing): void {
    this.queue.push(item);
    while (this.queue.length > this.options.maxQueued) {
      // A newer snapshot supersedes an old collect; events and command statuses are worth more.
      const oldestCollect = this.queue.findIndex((queued) => queued.topic.includes("/collect/"));
      this.queue.splice(Math.max(oldestCollect, 0), 1);
      this.counters.dropped++;
    }
    this.pump();
  }

  /** Sends queued messages while this outbox's and the shared in-flight bounds allow. */
  private pump(): void {
    const shared = this.options.shared;
    while (this.queue.length > 0 && this.inflight.size < this.options.maxInflight) {
      const client = this.client;
      if (!client?.connected || client.disconnecting) return;
      if (shared && !shared.tryAcquire()) {
        if (!this.waitingForShared) {
          this.waitingForShared = true;
          shared.whenReleased(() => {
            this.waitingForShared = false;
            this.pump();
          });
        }
        return;
      }
      const item = this.queue.shift() as Outgoing;
      const number = this.publishNumber++;
      this.inflight.set(number, item);
      this.counters.published++;
      this.counters.peakInflight = Math.max(this.counters.peakInflight, this.inflight.size);
      client.publish(item.topic, item.payload, { qos: 1 }, (error) => this.settle(number, error));
    }
  }

  private settle(number: number, error: Error | undefined): void {
    const item = this.inflight.get(number);
    // Already moved to the retry list by disconnected(), which gave its slot back.
    if (item === undefined) return;
    this.inflight.delete(number);
    this.options.shared?.release();
    if (error) {
      // mqtt.js gave up on it (it keeps QoS 1 publishes across reconnects, so this is rare).
      this.retry.push(item);
      this.counters.retried++;
      return;
    }
    this.counters.acked++;
    this.options.onAcked?.(item);
    this.pump();
  }
}
