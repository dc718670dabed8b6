import { z } from "zod";

/**
 * Most device ids one view may name (ADR 035): five times a list's largest page, and small enough
 * that a view message stays under the socket's 64 KB message limit.
 */
const SOCKET_VIEW_MAX_IDS = 500;

/**
 * What a page shows, so the socket sends changes of that only (ADR 035): `devices`, a list's
 * visible rows and the domain's status totals (the dashboard names no rows); `device`, one
 * device's page; `events`, the events page (every new event, not only those of viewed devices).
 */
export const SocketViewSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("devices"), ids: z.array(z.string().max(64)).max(SOCKET_VIEW_MAX_IDS) }),
  z.object({ kind: z.literal("device"), id: z.string().max(64) }),
  z.object({ kind: z.literal("events") }),
]);
export type SocketView = z.infer<typeof SocketViewSchema>;

const SocketViewsSchema = z.array(SocketViewSchema).max(8);

/**
 * The first message a client sends on /api/ws/, with the views of the page open now. Without
 * `views` (a client of the first protocol) the socket receives every device push of the domain.
 */
export const SocketHelloSchema = z.object({ token: z.string().min(1), views: SocketViewsSchema.optional() });
export type SocketHello = z.infer<typeof SocketHelloSchema>;

/** A client message after `ready`: the views changed (another page, another list page); replaces the previous. */
export const SocketViewMessageSchema = z.object({ type: z.literal("view"), views: SocketViewsSchema });
export type SocketViewMessage = z.infer<typeof SocketViewMessageSchema>;

/** Message types of the realtime socket (spec section 7). */
export const SOCKET_MESSAGE_TYPES = [
  "ready",
  "notifications",
  "alerts",
  "devices",
  "collects",
  "peers",
  "approval",
  "session",
  "events",
  "commands",
  "software",
  "reread",
] as const;
export type SocketMessageType = (typeof SOCKET_MESSAGE_TYPES)[number];

/** A message the server sends: `ready` after the token is accepted, `session` with `ended` before it closes. */
export const ServerSocketMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready"), domain_id: z.string().nullable() }),
  z.object({ type: z.literal("notifications"), content: z.array(z.unknown()) }),
  z.object({ type: z.literal("alerts"), content: z.array(z.unknown()) }),
  z.object({
    type: z.literal("devices"),
    action: z.enum(["update", "put", "delete"]),
    content: z.array(z.unknown()),
    /** To a socket viewing a list: the domain's devices changed, so its status totals may have (ADR 035). */
    totals: z.literal(true).optional(),
  }),
  z.object({ type: z.literal("collects"), content: z.array(z.unknown()) }),
  z.object({ type: z.literal("peers"), content: z.array(z.unknown()) }),
  z.object({ type: z.literal("approval"), content: z.array(z.unknown()) }),
  /** Events were marked read (content: their ids, or [] for all); badges refetch POST /api/events/unread. */
  z.object({ type: z.literal("events"), action: z.literal("read"), content: z.array(z.string()) }),
  z.object({ type: z.literal("session"), state: z.literal("ended"), code: z.string() }),
  /**
   * The socket fell behind (its peer did not read) and changes were dropped rather than queued
   * without bound: everything on screen is read again (ADR 035).
   */
  z.object({ type: z.literal("reread") }),
  /** Commands and executions changed (CommandsSocketContent): lists and the command page update live. */
  z.object({
    type: z.literal("commands"),
    content: z.object({ commands: z.array(z.unknown()), executions: z.array(z.unknown()) }),
  }),
  /** Software rules and rollouts changed (SoftwareSocketContent): root's list, rule page and rollout card update live. */
  z.object({
    type: z.literal("software"),
    content: z.object({
      rules: z.array(z.unknown()),
      deleted: z.array(z.string()),
      rollouts: z.array(z.unknown()),
    }),
  }),
]);
export type ServerSocketMessage = z.infer<typeof ServerSocketMessageSchema>;
