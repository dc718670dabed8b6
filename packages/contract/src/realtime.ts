import { z } from "zod";

/** The first message a client sends on /api/ws/. */
export const SocketHelloSchema = z.object({ token: z.string().min(1) });
export type SocketHello = z.infer<typeof SocketHelloSchema>;

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
  }),
  z.object({ type: z.literal("collects"), content: z.array(z.unknown()) }),
  z.object({ type: z.literal("peers"), content: z.array(z.unknown()) }),
  z.object({ type: z.literal("approval"), content: z.array(z.unknown()) }),
  /** Events were marked read (content: their ids, or [] for all); badges refetch POST /api/events/unread. */
  z.object({ type: z.literal("events"), action: z.literal("read"), content: z.array(z.string()) }),
  z.object({ type: z.literal("session"), state: z.literal("ended"), code: z.string() }),
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
