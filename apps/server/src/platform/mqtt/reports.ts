import {
  type DeviceMessageParseResult,
  isProtocolIdent,
  parseDeviceMessage,
  unsupportedTopicReason,
} from "@cellfleet/contract";
import type { GatewayCounters } from "./counters";
import type { Notifier } from "./notices";

/** A report that passed the protocol checks. */
export type ValidReport = Extract<DeviceMessageParseResult, { ok: true }>;

/** The part of the ingest pipeline the gateway feeds. */
export interface ReportSink {
  /** Resolves once the report is committed; only then may it be acknowledged. */
  submit(report: ValidReport): Promise<void>;
  /** Resolves when there is room for more reports. */
  waitForRoom(): Promise<void>;
}

/**
 * Checks one published message and hands a valid one to ingest. Resolves when it may be
 * acknowledged: at once for a refused message (acknowledged so the device does not resend it
 * forever, docs/device-protocol.md 5.2), after commit for a valid one. Rejects only when the
 * commit failed, so the caller withholds the acknowledgement.
 */
export async function acceptPublished(
  sink: ReportSink,
  counters: GatewayCounters,
  topic: string,
  payload: Uint8Array,
  publisher?: string,
  notifier?: Notifier,
): Promise<void> {
  const owner = publisher ?? topic.split("/", 3)[2] ?? "";
  const unsupported = unsupportedTopicReason(owner, topic);
  if (unsupported) {
    // A newer agent (a new collect type, v2): acknowledged so it is not resent, and the device is told.
    counters.refuse(unsupported, { ident: owner, topic });
    notifier?.notify(owner, unsupported, topic);
    return;
  }
  const parsed = parseDeviceMessage(topic, payload);
  if (!parsed.ok) {
    const ident = parsed.ident ?? publisher;
    counters.refuse(parsed.reason, { ident, topic, detail: parsed.detail });
    if (ident !== undefined && isProtocolIdent(ident)) notifier?.notify(ident, parsed.reason, topic);
    return;
  }
  if (publisher !== undefined && parsed.ident !== publisher) {
    counters.refuse("acl_publish", { ident: publisher, topic });
    return;
  }
  counters.counts.accepted++;
  await sink.submit(parsed);
}
