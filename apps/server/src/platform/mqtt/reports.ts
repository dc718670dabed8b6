import { type DeviceMessageParseResult, parseDeviceMessage } from "@cellfleet/contract";
import type { GatewayCounters } from "./counters";

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
): Promise<void> {
  const parsed = parseDeviceMessage(topic, payload);
  if (!parsed.ok) {
    counters.refuse(parsed.reason, { ident: parsed.ident ?? publisher, topic, detail: parsed.detail });
    return;
  }
  if (publisher !== undefined && parsed.ident !== publisher) {
    counters.refuse("acl_publish", { ident: publisher, topic });
    return;
  }
  counters.counts.accepted++;
  await sink.submit(parsed);
}
