import { z } from "zod";
import { MAX_DEVICE_TIME_MS } from "./fields";
import { MAX_TOPIC_LENGTH, PROTOCOL_VERSION } from "./topics";

/** Why the server tells a device on its notice topic (docs/device-protocol.md 4.6). */
export const NOTICE_REASONS = [
  "unsupported_version",
  "unsupported_topic",
  "bad_topic",
  "too_large",
  "not_json",
  "schema",
] as const;
/** One of {@link NOTICE_REASONS}. */
export type NoticeReason = (typeof NOTICE_REASONS)[number];

/** A notice: why one of the device's messages was refused (server → device, advice only). */
export const NoticeMessageSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  /** The server's clock in ms: notices are not numbered per device. */
  seq: z.int().min(0),
  ts: z.int().min(0).max(MAX_DEVICE_TIME_MS),
  reason: z.enum(NOTICE_REASONS),
  topic: z.string().max(MAX_TOPIC_LENGTH),
});
/** A parsed notice. */
export type NoticeMessage = z.infer<typeof NoticeMessageSchema>;
