import { z } from "zod";
import { REMOTE_ACCESS_LIMIT_RANGES, type RemoteAccessLimit } from "./tunnel-limits";

export { REMOTE_ACCESS_LIMIT_RANGES, type RemoteAccessLimit } from "./tunnel-limits";

// Remote access (issue 29, ADR 038): a router's shell (and, later, its web interface) from the
// browser, through the console. A session is asked for, approved like a command (four eyes), opened
// once by its author, bounded by the domain's limits, and audited when it ends.

/** What a session reaches on the router: its shell (`terminal`) or its own web interface (`web`, port 80). */
export const REMOTE_ACCESS_KINDS = ["terminal", "web"] as const;
/** One of {@link REMOTE_ACCESS_KINDS}. */
export type TunnelKind = (typeof REMOTE_ACCESS_KINDS)[number];

/**
 * A session's life: `waiting` for approval, `approved` (may be opened), `open` (the router dialled
 * in and bytes flow), `ended` (with a reason), `refused` by an approver.
 */
export const TUNNEL_STATES = ["waiting", "approved", "open", "ended", "refused"] as const;
/** One of {@link TUNNEL_STATES}. */
export type TunnelState = (typeof TUNNEL_STATES)[number];

/** Why a session ended. */
export const TUNNEL_END_REASONS = [
  "closed", // the person closed the terminal, or the router's shell exited
  "ended_by_user", // "end now" by its author or an admin
  "idle", // no byte either way for the domain's idle time-out
  "limit", // the approved duration (at most the domain's absolute limit) ran out
  "quota", // the byte quota was used up
  "expired", // approved but never opened in time
  "no_router", // the router did not dial in
  "failed", // the router's sshd refused or the link broke
] as const;
/** One of {@link TUNNEL_END_REASONS}. */
export type TunnelEndReason = (typeof TUNNEL_END_REASONS)[number];

const limitSchema = (name: RemoteAccessLimit) =>
  z.int().min(REMOTE_ACCESS_LIMIT_RANGES[name].min).max(REMOTE_ACCESS_LIMIT_RANGES[name].max);

/** The domain's remote-access limits (domain settings `remote_access`); ADR 038 gives the defaults' reasons. */
export const RemoteAccessSettingsSchema = z.object({
  /** A session with no byte either way this long ends. */
  idle_minutes: limitSchema("idle_minutes"),
  /** No session lasts longer than this, whatever was approved. */
  max_minutes: limitSchema("max_minutes"),
  /** Bytes a second each way at most, in KiB/s. */
  bandwidth_kib: limitSchema("bandwidth_kib"),
  /** Bytes both ways together at most, in MiB; the session ends when reached. */
  quota_mib: limitSchema("quota_mib"),
  /** Days a terminal session's recording is kept after it ends (settings saved before it had none: 90). */
  recording_days: limitSchema("recording_days").default(90),
});
/** The domain's remote-access limits. */
export type RemoteAccessSettings = z.infer<typeof RemoteAccessSettingsSchema>;

/** Limits a domain starts with: our choice (ADR 038). */
export const DEFAULT_REMOTE_ACCESS: RemoteAccessSettings = {
  idle_minutes: 15,
  max_minutes: 120,
  bandwidth_kib: 1024,
  quota_mib: 256,
  recording_days: 90,
};

/** How long an approved session may wait to be opened. */
export const TUNNEL_OPEN_WITHIN_MINUTES = 60;

/** Minutes a request may ask for: 1 to a day (the domain's limit cuts it further). */
export const TunnelMinutesSchema = z.int().min(1).max(1440);

/** Body of POST /api/tunnels: a session on one router, for so many minutes. */
export const CreateTunnelSchema = z.object({
  device_id: z.string().min(1).max(64),
  kind: z.enum(REMOTE_ACCESS_KINDS).default("terminal"),
  minutes: TunnelMinutesSchema.default(30),
});
/** Body of POST /api/tunnels. */
export type CreateTunnel = z.infer<typeof CreateTunnelSchema>;

/** One session as the console shows it (HTTP answers and the `peers` socket message alike). */
export const TunnelSessionSchema = z.object({
  _id: z.string(),
  device_id: z.string(),
  ident: z.string(),
  kind: z.enum(REMOTE_ACCESS_KINDS),
  state: z.enum(TUNNEL_STATES),
  minutes: z.int(),
  author_id: z.string(),
  author: z.string(),
  /** Author's role and junior flag: who may approve is decided by the permission table. */
  author_role: z.int(),
  author_is_junior: z.boolean(),
  approver: z.string().nullable(),
  create_time: z.string(),
  open_time: z.string().nullable(),
  end_time: z.string().nullable(),
  end_reason: z.enum(TUNNEL_END_REASONS).nullable(),
  /** Bytes from the browser to the router, and back. */
  bytes_up: z.int(),
  bytes_down: z.int(),
  /** Its terminal recording is kept (replayable); false before it ran and after the domain's retention. */
  has_recording: z.boolean(),
});
/** One session. */
export type TunnelSession = z.infer<typeof TunnelSessionSchema>;

/** Answer of POST /api/tunnels/list: the domain's sessions not yet over, then the latest ended ones. */
export const TunnelSessionsSchema = z.object({ items: z.array(TunnelSessionSchema) });
/** Answer of the list. */
export type TunnelSessions = z.infer<typeof TunnelSessionsSchema>;

/** Body of POST /api/tunnel/{id}/approve: the approver names the router and the duration it approves. */
export const ApproveTunnelSchema = z.object({
  device_id: z.string().min(1).max(64),
  minutes: TunnelMinutesSchema,
});
/** Body of the approval. */
export type ApproveTunnel = z.infer<typeof ApproveTunnelSchema>;

/**
 * The terminal's WebSocket (/api/tunnel/{id}/terminal): the browser sends `hello` with its token
 * first, then `input` and `resize`; the server sends `state`, `output` and, last, `ended`.
 */
export const TerminalClientMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("hello"),
    token: z.string().min(1),
    cols: z.int().min(2).max(500),
    rows: z.int().min(2).max(200),
  }),
  z.object({ type: z.literal("input"), data: z.string().max(64 * 1024) }),
  z.object({ type: z.literal("resize"), cols: z.int().min(2).max(500), rows: z.int().min(2).max(200) }),
]);
/** What the browser sends on the terminal socket. */
export type TerminalClientMessage = z.infer<typeof TerminalClientMessageSchema>;

/** What the server sends on the terminal socket. */
export type TerminalServerMessage =
  | { type: "state"; state: "connecting" | "open" }
  | { type: "output"; data: string }
  | { type: "ended"; reason: TunnelEndReason | null; code?: string };

/**
 * Answer of POST /api/tunnel/{id}/web: the single-use link that opens the router's web interface on
 * the session's own origin (a host under TUNNEL_WEB_HOST, or a port of its own on the console's
 * host). The link sets a cookie of that origin and is good once, for a minute.
 */
export const WebTunnelLinkSchema = z.object({
  url: z.string(),
  /** The session's origin, e.g. `https://3kq7….tunnel.example.com` or `http://console.example.com:20001`. */
  origin: z.string(),
});
/** The session's origin and its single-use link. */
export type WebTunnelLink = z.infer<typeof WebTunnelLinkSchema>;

/**
 * Answer of POST /api/tunnel/{id}/web: `open` with the link (the origin's requests wait for the
 * router to dial in), or `ended` with the §8 code PEER_NOT_CONNECTED: the router is not connected.
 * It is sent in the answer, as the terminal sends it on its socket: its HTTP status 502 signs a browser out.
 */
export const WebTunnelOpenSchema = z.discriminatedUnion("state", [
  WebTunnelLinkSchema.extend({ state: z.literal("open") }),
  z.object({ state: z.literal("ended"), code: z.literal("PEER_NOT_CONNECTED") }),
]);
/** Answer of POST /api/tunnel/{id}/web. */
export type WebTunnelOpen = z.infer<typeof WebTunnelOpenSchema>;

/** The first line of a recording (asciicast v2): the terminal's size when the session opened. */
export const RecordingHeaderSchema = z.looseObject({
  version: z.literal(2),
  width: z.int(),
  height: z.int(),
});
/** Each later line: seconds since the start, "o" (output), and the text the router printed. */
export const RecordingOutputSchema = z.tuple([z.number(), z.string(), z.string()]);
/** A line of GET /api/tunnel/{id}/recording (asciicast v2: the header, then one line per output). */
export const RecordingLineSchema = z.union([RecordingHeaderSchema, RecordingOutputSchema]);
/** One line of a recording. */
export type RecordingLine = z.infer<typeof RecordingLineSchema>;
