import { z } from "zod";
import { PROTOCOL_VERSION } from "./topics";

// Field schemas shared by the message files. Bounds are ours (the spec gives none); they are wide
// enough for every router we know and narrow enough that one report cannot hog the ingest.

/** Latest `ts` accepted: 2100-01-01T00:00:00Z in milliseconds. */
export const MAX_DEVICE_TIME_MS = 4_102_444_800_000;

/** Most characters of an object's name in a report (interface, port, tunnel, modem id). */
export const REPORT_NAME_MAX_LENGTH = 64;

/** Most characters of a free text in a report (operator, module, firmware, hostname). */
export const REPORT_TEXT_MAX_LENGTH = 128;

/** A name of something on the router: 1 to 64 characters. */
export const reportName = z.string().min(1).max(REPORT_NAME_MAX_LENGTH);

/** A short free text: 1 to 128 characters. */
export const reportText = z.string().min(1).max(REPORT_TEXT_MAX_LENGTH);

/** A byte counter or size: a non-negative safe integer. */
export const byteCount = z.int().min(0);

/** A duration in whole seconds, non-negative. */
export const seconds = z.int().min(0);

/** A percentage, 0 to 100, fractions allowed. */
export const percent = z.number().min(0).max(100);

/** An IPv4 or IPv6 address without a prefix length. */
export const ipAddress = z.union([z.ipv4(), z.ipv6()]);

/** An IPv4 or IPv6 address, optionally with a prefix length (`10.0.0.1/24`). */
export const ipAddressOrCidr = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);

/** A MAC address: six colon-separated hex pairs, either case. */
export const macAddress = z.string().regex(/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/);

/** A link, interface or tunnel state. */
export const LINK_STATES = ["up", "down"] as const;
/** One of {@link LINK_STATES}. */
export type LinkState = (typeof LINK_STATES)[number];

/** Fields every message carries: protocol version, per-device sequence number, device time. */
export const envelopeShape = {
  /** Protocol major version; equals the `v1` of the topic. */
  v: z.literal(PROTOCOL_VERSION),
  /** Per-device sequence number; strictly increases over everything the device publishes. */
  seq: z.int().min(0),
  /** Device time when the message was made, in ms since the Unix epoch. */
  ts: z.int().min(0).max(MAX_DEVICE_TIME_MS),
  /**
   * The numbering `seq` belongs to (docs/device-protocol.md 5.1), optional: a router whose counters
   * restart (factory reset, replacement hardware, no storage) sends a new epoch and the server
   * numbers its reports after everything stored before.
   */
  epoch: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
};
