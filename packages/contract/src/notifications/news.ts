import { z } from "zod";

// In-app notifications (spec section 7): what rules sent, shown to the signed-in people of the
// rule's domain who have the notification plugin, through POST /api/notifications/news and the
// socket's `notifications` message.

/** How serious an item is: a problem started, an occurrence or reminder, a problem ended. */
export const NEWS_LEVELS = ["error", "warning", "info", "success"] as const;
export type NewsLevel = (typeof NEWS_LEVELS)[number];

/** Items POST /api/notifications/news answers at most. */
export const NEWS_LIMIT = 50;

/** One in-app notification; also the content items of the socket's `notifications` message. */
export const NewsItemSchema = z.object({
  _id: z.string(),
  level: z.enum(NEWS_LEVELS),
  title: z.string(),
  text: z.string(),
  rule: z.object({ _id: z.string(), name: z.string() }).nullable(),
  create_time: z.number(),
  /** The routers its lines name (ADR 041); null or absent: none. */
  device_ids: z.array(z.string()).nullable().optional(),
});
/** An in-app notification. */
export type NewsItem = z.infer<typeof NewsItemSchema>;

/** Answer of POST /api/notifications/news: the newest items and how many the person has not seen. */
export const NewsAnswerSchema = z.object({
  items: z.array(NewsItemSchema),
  unseen: z.number().int(),
  /** Items up to this time (ms) count as seen by the person. */
  seen_until: z.number().nullable(),
});
export type NewsAnswer = z.infer<typeof NewsAnswerSchema>;

/** Body of POST /api/notifications/news/seen: everything up to `until` (ms; default now) is seen. */
export const NewsSeenSchema = z.object({ until: z.number().int().min(0).optional() });
export type NewsSeen = z.infer<typeof NewsSeenSchema>;
