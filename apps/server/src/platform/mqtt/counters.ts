/** Why the gateway refused a connection, a subscription or a message. */
export const REFUSAL_REASONS = [
  "unknown_device",
  "no_key",
  "bad_token",
  "bad_username",
  "acl_publish",
  "acl_subscribe",
  "bad_topic",
  "too_large",
  "not_json",
  "schema",
  "ingest_failed",
  /** A topic of the device's own under another major version (cellfleet/v2/…): acknowledged, not stored. */
  "unsupported_version",
  /** A v1 topic of the device's own the server does not know (a newer collect type): acknowledged, not stored. */
  "unsupported_topic",
  /** A CONNECT of an MQTT version the embedded broker does not speak (MQTT 5): CONNACK 0x84. */
  "unsupported_protocol",
  /** A zero-touch router its configuration did not match: it waits in the adoption list (modules/zerotouch). */
  "adoption_pending",
  /** A zero-touch router an admin rejected: refused until accepted. */
  "adoption_rejected",
] as const;
/** One of {@link REFUSAL_REASONS}. */
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** Counts of the gateway since start, for GET /api/mqtt/stats. */
export interface GatewayCounts {
  /** Device connections open now (embedded broker); null with an external broker, which knows its own. */
  connections: number | null;
  /** Device connections accepted since start. */
  connectionsAccepted: number;
  accepted: number;
  refused: Record<RefusalReason, number>;
}

interface MinimalLog {
  warn(obj: object, msg: string): void;
}

/** How often each refusal reason may be logged: the first few per window, then one summary. */
const LOG_WINDOW_MS = 60_000;
const LOGS_PER_WINDOW = 10;

/** Refusal counters with rate-limited logging, so a misbehaving device cannot flood the log. */
export class GatewayCounters {
  readonly counts: GatewayCounts = {
    connections: null,
    connectionsAccepted: 0,
    accepted: 0,
    refused: Object.fromEntries(REFUSAL_REASONS.map((reason) => [reason, 0])) as Record<
      RefusalReason,
      number
    >,
  };
  private readonly windows = new Map<RefusalReason, { start: number; logged: number; suppressed: number }>();

  constructor(
    private readonly log: MinimalLog,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts a refusal and logs it, unless this reason was logged too often lately. */
  refuse(reason: RefusalReason, details: { ident?: string; topic?: string; detail?: string }): void {
    this.counts.refused[reason]++;
    const now = this.clock();
    let window = this.windows.get(reason);
    if (!window || now - window.start >= LOG_WINDOW_MS) {
      if (window && window.suppressed > 0) {
        this.log.warn(
          { reason, suppressed: window.suppressed },
          "mqtt refusals not logged in the last minute",
        );
      }
      window = { start: now, logged: 0, suppressed: 0 };
      this.windows.set(reason, window);
    }
    if (window.logged < LOGS_PER_WINDOW) {
      window.logged++;
      this.log.warn({ reason, ...details, topic: details.topic?.slice(0, 300) }, "mqtt refused");
    } else window.suppressed++;
  }

  snapshot(): GatewayCounts {
    return { ...this.counts, refused: { ...this.counts.refused } };
  }
}
