import { z } from "zod";
import { LocaleSchema } from "../constantSchemas";
import { SIGNAL_QUALITIES } from "../lists";
import { TagSchema } from "../validators/textSchemas";

// Uptime (SLA) reports (issue 31): how well routers kept their promise over one calendar month of
// the domain's time zone, computed from the stored history (outages, modem changes, SIM usage,
// signal rollups), never from sampling (docs/adr/044-uptime-reports.md).

/** A report's month: `YYYY-MM`. */
export const REPORT_MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** What a report covers: the whole domain, the routers with one tag, or one router. */
export const REPORT_SCOPES = ["domain", "tag", "device"] as const;
/** One of {@link REPORT_SCOPES}. */
export type ReportScope = (typeof REPORT_SCOPES)[number];

/** Body of POST /api/reports/uptime and its CSV export. */
export const UptimeReportRequestSchema = z.object({
  month: z.string().regex(REPORT_MONTH_PATTERN, "monthInvalid"),
  scope: z.enum(REPORT_SCOPES).default("domain"),
  /** The tag of a `tag` report. */
  tag: TagSchema.optional(),
  /** The router of a `device` report. */
  device_id: z.string().min(1).max(64).optional(),
});
/** Body of POST /api/reports/uptime. */
export type UptimeReportRequest = z.input<typeof UptimeReportRequestSchema>;

/** Body of POST /api/uptime/pdf: the report's request and the language the PDF is written in. */
export const UptimePdfRequestSchema = UptimeReportRequestSchema.extend({ language: LocaleSchema });
/** Body of POST /api/uptime/pdf. */
export type UptimePdfRequest = z.input<typeof UptimePdfRequestSchema>;

/** Bytes one SIM moved in the month (in the routers of the row). */
export const SimMonthUsageSchema = z.object({ iccid: z.string(), rx: z.number(), tx: z.number() });

/** The figures of one router, or of a tag's or a domain's routers together. */
export const UptimeFiguresSchema = z.object({
  /** Time the report looks at: the month from the router's creation, up to now for this month. */
  observed_ms: z.number(),
  connected_ms: z.number(),
  /** connected_ms / observed_ms × 100, one decimal; null when nothing was observed. */
  connected_percent: z.number().nullable(),
  outages: z.object({ count: z.number(), longest_ms: z.number(), total_ms: z.number() }),
  /** Time a modem of the router was on a SIM slot other than 1. */
  backup_sim_ms: z.number(),
  /** The month's mean CSQ and its quality band (spec section 4); null and unknown without samples. */
  signal: z.object({ csq: z.number().nullable(), quality: z.enum(SIGNAL_QUALITIES) }),
  sims: z.array(SimMonthUsageSchema),
  /** Firmware flashes that succeeded through rollouts in the month. */
  firmware_changes: z.number(),
});
/** One row's figures. */
export type UptimeFigures = z.infer<typeof UptimeFiguresSchema>;

/** A router's line of the report. */
export const UptimeRouterSchema = z.object({
  _id: z.string(),
  ident: z.string(),
  description: z.string(),
  figures: UptimeFiguresSchema,
});
/** A router's line. */
export type UptimeRouter = z.infer<typeof UptimeRouterSchema>;

/** Answer of POST /api/reports/uptime. */
export const UptimeReportSchema = z.object({
  month: z.string(),
  time_zone: z.string(),
  /** The month's first and last moment + 1 in the domain's zone, ms since the epoch. */
  from: z.number(),
  to: z.number(),
  scope: z.enum(REPORT_SCOPES),
  tag: z.string().nullable(),
  totals: UptimeFiguresSchema.extend({ routers: z.number() }),
  routers: z.array(UptimeRouterSchema),
  /** Connected % of the scope's routers per day of the month (null: nothing observed that day). */
  days: z.array(z.object({ day: z.string(), from: z.number(), connected_percent: z.number().nullable() })),
});
/** Answer of POST /api/reports/uptime. */
export type UptimeReport = z.infer<typeof UptimeReportSchema>;
