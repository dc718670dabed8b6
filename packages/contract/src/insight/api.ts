import { z } from "zod";
import { SIGNAL_QUALITIES } from "../lists";
import { MODEM_CHANGE_FIELDS } from "./changes";
import { HISTORY_RANGES, SIGNAL_METRICS } from "./signal";
import { TIMELINE_STATES } from "./timeline";

// Request and answer bodies of the insight routes (issue 18): signal history, data usage and plans,
// what a router needs to connect, and the dashboard's list of routers whose signal got worse.

// --- Signal history: POST /api/device/{dev_id}/signal ---

/** Body of POST /api/device/{dev_id}/signal: the range that ends now. */
export const SignalHistoryRequestSchema = z.object({
  range: z.enum(HISTORY_RANGES).default("24h"),
});
/** Body of POST /api/device/{dev_id}/signal. */
export type SignalHistoryRequest = z.input<typeof SignalHistoryRequestSchema>;

/** One metric over the buckets of a series: index i belongs to `t[i]`; null where nothing was reported. */
export const MetricSeriesSchema = z.object({
  min: z.array(z.number().nullable()),
  max: z.array(z.number().nullable()),
  mean: z.array(z.number().nullable()),
});
/** One metric's buckets. */
export type MetricSeries = z.infer<typeof MetricSeriesSchema>;

/** One modem's signal over the range, by bucket (only buckets with a report appear). */
export const ModemSignalSeriesSchema = z.object({
  modem: z.string(),
  /** Bucket starts, ms since the epoch, ascending. */
  t: z.array(z.number()),
  ...(Object.fromEntries(SIGNAL_METRICS.map((metric) => [metric, MetricSeriesSchema])) as Record<
    (typeof SIGNAL_METRICS)[number],
    typeof MetricSeriesSchema
  >),
});
/** One modem's signal series. */
export type ModemSignalSeries = z.infer<typeof ModemSignalSeriesSchema>;

/** A period without contact; `is_ongoing` when the router is silent still. */
export const OutageSchema = z.object({ from: z.number(), to: z.number(), is_ongoing: z.boolean() });

/** A change of SIM, ICCID, operator, band or mode of a modem, at the report that showed it. */
export const ModemChangeMarkSchema = z.object({
  time: z.number(),
  modem: z.string(),
  changes: z.partialRecord(
    z.enum(MODEM_CHANGE_FIELDS),
    z.object({ from: z.union([z.string(), z.number()]), to: z.union([z.string(), z.number()]) }),
  ),
});
/** A modem change marker. */
export type ModemChangeMark = z.infer<typeof ModemChangeMarkSchema>;

/** One stretch of the status timeline (contract buildStatusTimeline). */
export const TimelineSegmentSchema = z.object({
  from: z.number(),
  to: z.number(),
  status: z.enum(TIMELINE_STATES),
});

/** Answer of POST /api/device/{dev_id}/signal. */
export const SignalHistorySchema = z.object({
  range: z.enum(HISTORY_RANGES),
  from: z.number(),
  to: z.number(),
  bucket_ms: z.number(),
  modems: z.array(ModemSignalSeriesSchema),
  outages: z.array(OutageSchema),
  changes: z.array(ModemChangeMarkSchema),
  /** When the router booted (its `router_started` events). */
  reboots: z.array(z.number()),
  timeline: z.array(TimelineSegmentSchema),
});
/** A device's signal history. */
export type SignalHistory = z.infer<typeof SignalHistorySchema>;

// --- Data usage: POST /api/device/{dev_id}/usage, plans ---

/** Most bytes a plan may have (1 PiB): far beyond any SIM, and exact in a double. */
export const DATA_PLAN_MAX_BYTES = 2 ** 50;

/** A data plan: its size and the day of the month it starts again (1-31; a shorter month: its last day). */
export const DataPlanSchema = z.object({
  plan_bytes: z.number().int().min(1).max(DATA_PLAN_MAX_BYTES),
  reset_day: z.number().int().min(1).max(31),
});
/** A data plan. */
export type DataPlan = z.infer<typeof DataPlanSchema>;

/** Where a SIM's plan comes from: its own, or a tag of the router it is in. */
export const AppliedPlanSchema = DataPlanSchema.extend({
  source: z.enum(["sim", "tag"]),
  /** The tag whose plan applies (source "tag"). */
  tag: z.string().optional(),
});

/** One day's bytes of a SIM. */
export const UsageDaySchema = z.object({ day: z.string(), rx: z.number(), tx: z.number() });

/** A SIM seen in the router, with its usage wherever it was. */
export const SimUsageSchema = z.object({
  iccid: z.string(),
  /** Where it was last seen: the router, its modem and slot. */
  device: z.object({ _id: z.string(), ident: z.string() }),
  modem: z.string(),
  slot: z.number().int(),
  operator: z.string().nullable(),
  last_seen: z.number(),
  /** Whether it is in this router now (a SIM moved away still shows its time here). */
  is_here: z.boolean(),
  /** The last 31 UTC days, oldest first, zero where nothing moved. */
  days: z.array(UsageDaySchema),
  /** The current billing period (the plan's reset day, or the calendar month without a plan). */
  period: z.object({ start: z.string(), end: z.string(), rx: z.number(), tx: z.number() }),
  plan: AppliedPlanSchema.nullable(),
  /** Period usage in percent of the plan; null without a plan. */
  percent: z.number().nullable(),
});
/** A SIM's usage. */
export type SimUsage = z.infer<typeof SimUsageSchema>;

/** Answer of POST /api/device/{dev_id}/usage: the SIMs this router held in the last 31 days. */
export const DeviceUsageSchema = z.object({ sims: z.array(SimUsageSchema) });
/** A router's SIM usage. */
export type DeviceUsage = z.infer<typeof DeviceUsageSchema>;

/** POST /api/sim/{iccid}/plan: a SIM's own plan; `plan: null` removes it (then a tag's plan applies). */
export const SetSimPlanSchema = z.object({ plan: DataPlanSchema.nullable() });
/** Body of POST /api/sim/{iccid}/plan. */
export type SetSimPlan = z.infer<typeof SetSimPlanSchema>;

/** Answer of POST /api/sim/{iccid}/plan. */
export const SimPlanSavedSchema = z.object({ ok: z.literal(true) });

/** A tag's plan: every SIM in a router with this tag, unless the SIM has its own. */
export const TagPlanSchema = DataPlanSchema.extend({ tag: z.string() });
/** A tag's plan. */
export type TagPlan = z.infer<typeof TagPlanSchema>;

/** POST /api/plans/tag: sets (or with `plan: null` removes) the plan of a tag. */
export const SetTagPlanSchema = z.object({ tag: z.string().min(1).max(64), plan: DataPlanSchema.nullable() });
/** Body of POST /api/plans/tag. */
export type SetTagPlan = z.infer<typeof SetTagPlanSchema>;

/** Answer of POST /api/plans: the domain's tag plans. */
export const TagPlansSchema = z.object({ plans: z.array(TagPlanSchema) });

// --- Connecting a router: POST /api/device/{dev_id}/connect, POST /api/device/{dev_id}/key ---

/** Why the gateway refused a router's connection (docs/device-protocol.md 2). */
export const CONNECT_REFUSALS = ["unknown_device", "no_key", "bad_token", "bad_username"] as const;
/** One of {@link CONNECT_REFUSALS}. */
export type ConnectRefusal = (typeof CONNECT_REFUSALS)[number];

/** Where routers connect: an `mqtt://` or `mqtts://` address of the broker as routers reach it. */
export const BrokerAddressSchema = z.object({
  url: z.string(),
  is_tls: z.boolean(),
  host: z.string(),
  port: z.number().int(),
});
/** A broker address. */
export type BrokerAddress = z.infer<typeof BrokerAddressSchema>;

/** The last refused connection under this ident: why, when, from where, and how many since it began. */
export const LastRefusalSchema = z.object({
  reason: z.enum(CONNECT_REFUSALS),
  time: z.number(),
  address: z.string().nullable(),
  count: z.number().int(),
});
/** The last refusal of an ident. */
export type LastRefusal = z.infer<typeof LastRefusalSchema>;

/** Answer of POST /api/device/{dev_id}/connect: what a router needs, and what the gateway saw of it. */
export const DeviceConnectInfoSchema = z.object({
  ident: z.string(),
  has_key: z.boolean(),
  brokers: z.array(BrokerAddressSchema),
  /**
   * Routers connect to the console's embedded broker, whose port stays the same on every start
   * (remembered in DATA_DIR/mqtt-port when it had to move): changing it means telling every router.
   */
  is_embedded_broker: z.boolean(),
  /** Topics of this router start with this (`cellfleet/v1/{ident}`). */
  topic_root: z.string(),
  last_refusal: LastRefusalSchema.nullable(),
});
/** What a router needs to connect. */
export type DeviceConnectInfo = z.infer<typeof DeviceConnectInfoSchema>;

/** Answer of POST /api/devices/connect: where routers connect (the create form shows it). */
export const BrokersSchema = z.object({ brokers: z.array(BrokerAddressSchema) });

/** Answer of POST /api/device/{dev_id}/key: the new key, shown once (it is never answered again). */
export const NewDeviceKeySchema = z.object({ aes_key: z.string() });

/**
 * Answer of POST /api/device/{dev_id}/install: the agent's one-line install for this router. The
 * link serves the script once, until `expires_at`, filled with the router's ident and key (ADR 034).
 */
export const AgentInstallLinkSchema = z.object({
  /** The script's one-time address. */
  url: z.string(),
  /** `wget -qO- '<url>' | sh`: what to paste into the router's shell. */
  command: z.string(),
  /** The same without a link: the key is typed in as the second argument. */
  generic_command: z.string(),
  /** When the link stops serving, ms since the epoch. */
  expires_at: z.number(),
  /** The router had no key: one was made for the link (the router's page now says "key set"). */
  is_key_made: z.boolean(),
});
/** The agent's one-line install for a router. */
export type AgentInstallLink = z.infer<typeof AgentInstallLinkSchema>;

// --- The dashboard: POST /api/dashboard/signal ---

/** A router whose signal got worse: the mean of the last 24 h against the 24 h before. */
export const SignalDeclineSchema = z.object({
  _id: z.string(),
  ident: z.string(),
  modem: z.string(),
  /** RSRP, or RSSI for a modem that reports no RSRP (2G/3G). */
  metric: z.enum(["rsrp", "rssi"]),
  now: z.number(),
  before: z.number(),
  /** now − before, dB (negative: worse). */
  change: z.number(),
  quality: z.enum(SIGNAL_QUALITIES),
});
/** A router whose signal got worse. */
export type SignalDecline = z.infer<typeof SignalDeclineSchema>;

/** Answer of POST /api/dashboard/signal: at most {@link SIGNAL_DECLINES_LIMIT}, the largest drop first. */
export const SignalDeclinesSchema = z.object({ devices: z.array(SignalDeclineSchema) });
export type SignalDeclines = z.infer<typeof SignalDeclinesSchema>;

/** How many routers the dashboard lists; a drop smaller than {@link SIGNAL_DECLINE_MIN_DB} is not listed. */
export const SIGNAL_DECLINES_LIMIT = 10;
/** The smallest drop of the mean, dB, worth listing: less is the walk of a steady signal. */
export const SIGNAL_DECLINE_MIN_DB = 3;
