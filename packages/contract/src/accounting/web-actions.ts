import { z } from "zod";
import { LOG_PAGE_SIZE } from "../constants";
import { AuditObjectSchema } from "./audit-actions";

// The audit log of web actions (spec sections 2, 3 and 7).

/** Statuses of a log entry: the call answered below 400, or not. */
export const WEB_ACTION_STATUSES = ["SUCCESS", "FAILURE"] as const;
/** A log entry's status. */
export type WebActionStatus = (typeof WEB_ACTION_STATUSES)[number];

/**
 * A log entry: `action` is the method and the section joined by an underscore (`POST_user`);
 * `info` is the request body with keys containing "password" or "_id" (but device_id), and
 * tokens, keys and codes, replaced by "***", and numeric timestamps turned into ISO dates.
 * `kind` (AUDIT_ROUTES) and `object` say in words what was done to what; null on older entries.
 */
export const WebActionSchema = z.object({
  _id: z.string(),
  author: z.string(),
  author_id: z.string().nullable(),
  domain_name: z.string().nullable(),
  action: z.string(),
  status: z.enum(WEB_ACTION_STATUSES),
  /** ms since the epoch. */
  create_time: z.number(),
  client_ip: z.string().nullable(),
  info: z.record(z.string(), z.unknown()),
  kind: z.string().nullable(),
  object: AuditObjectSchema.nullable(),
  /** The name of the API token the author acted through ("via token NAME", ADR 040); null otherwise. */
  via_token: z.string().nullable(),
});
/** A log entry. */
export type WebAction = z.infer<typeof WebActionSchema>;

/**
 * POST /api/web_actions/ (superusers: every domain; admins: their own). The window is
 * `[since, since + for)` in ms since the epoch, or the `last` ms before now; none of them: everything.
 * `author`, `action`, `status` are the tag filters (`action` matches the method and section or the
 * kind); `search` matches author, action, kind, the object's name, client_ip or info.
 * Newest first, `limit` (default 2048) from `offset`. A page of `limit` rows means "load more".
 */
export const WebActionsRequestSchema = z.object({
  since: z.number().int().min(0).optional(),
  for: z.number().int().min(0).optional(),
  last: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(10_000).default(LOG_PAGE_SIZE),
  offset: z.number().int().min(0).default(0),
  search: z.string().trim().max(255).optional(),
  author: z.array(z.string()).optional(),
  action: z.array(z.string()).optional(),
  status: z.array(z.enum(WEB_ACTION_STATUSES)).optional(),
});
/** Body of POST /api/web_actions/. */
export type WebActionsRequest = z.infer<typeof WebActionsRequestSchema>;

/** Answer of POST /api/web_actions/: plain JSON (not streamed), newest first. */
export const WebActionsAnswerSchema = z.object({ items: z.array(WebActionSchema) });
/** Answer of POST /api/web_actions/. */
export type WebActionsAnswer = z.infer<typeof WebActionsAnswerSchema>;

/**
 * POST /api/web_actions/export: the same filter without paging (at most 100000 rows); answers
 * text/csv, saved as `web_actions.csv`, with the columns author, action, kind, object (its type and
 * name, id or count), status, create_time (ISO), client_ip, info (JSON).
 */
export const WebActionsExportRequestSchema = WebActionsRequestSchema.omit({ limit: true, offset: true });
/** Body of POST /api/web_actions/export. */
export type WebActionsExportRequest = z.infer<typeof WebActionsExportRequestSchema>;

/** The CSV columns of the archive, in order. */
export const WEB_ACTIONS_CSV_COLUMNS = [
  "author",
  "via_token",
  "action",
  "kind",
  "object",
  "status",
  "create_time",
  "client_ip",
  "info",
] as const;
