import { z } from "zod";
import { TRANSPORT_TYPES } from "./transports";

// The delivery log: every message a rule sent (or tried to), through the durable outbox, with the
// status and the provider's answer of each attempt, and a resend for a person.

/**
 * A delivery's state: queued (its job waits), sending (an attempt runs), sent, retrying (an attempt
 * failed; the next waits its backoff or the provider's retry_after), failed (the last attempt
 * failed: the dead letter a person may resend).
 */
export const DELIVERY_STATES = ["queued", "sending", "sent", "retrying", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What a message says: incidents opened, resolved or summed up; or a timer's digest. */
export const DELIVERY_KINDS = ["incidents", "digest"] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** Attempts of a delivery before it is a dead letter. */
export const DELIVERY_MAX_ATTEMPTS = 8;

/** One attempt: its outcome and what the provider answered. */
export const DeliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  outcome: z.enum(["sending", "sent", "failed", "retry_after"]),
  /** The provider's HTTP status or SMTP reply code, when it answered. */
  status_code: z.number().int().nullable(),
  answer: z.string(),
  start_time: z.number(),
  end_time: z.number().nullable(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttemptSchema>;

/** A delivery as the log shows it. */
export const DeliverySchema = z.object({
  _id: z.string(),
  kind: z.enum(DELIVERY_KINDS),
  state: z.enum(DELIVERY_STATES),
  rule: z.object({ _id: z.string(), name: z.string() }).nullable(),
  transport: z.object({ _id: z.string(), name: z.string(), type: z.enum(TRANSPORT_TYPES) }).nullable(),
  title: z.string(),
  text: z.string(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  /** The last attempt's answer (or error) from the provider. */
  last_answer: z.string().nullable(),
  /** When the next attempt runs (queued or retrying). */
  next_attempt_time: z.number().nullable(),
  sent_time: z.number().nullable(),
  create_time: z.number(),
  attempt_log: z.array(DeliveryAttemptSchema),
});
/** A delivery. */
export type Delivery = z.infer<typeof DeliverySchema>;

/** POST /api/notifications/deliveries: newest first, filtered by state, rule or provider. */
export const DeliveryListRequestSchema = z.object({
  state: z.array(z.enum(DELIVERY_STATES)).max(DELIVERY_STATES.length).optional(),
  rule_id: z.string().max(64).optional(),
  transport_id: z.string().max(64).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).default(0),
});
export type DeliveryListRequest = z.input<typeof DeliveryListRequestSchema>;
/** Answer of POST /api/notifications/deliveries. Empty without the notification plugin. */
export const DeliveryListAnswerSchema = z.object({ items: z.array(DeliverySchema) });
export type DeliveryListAnswer = z.infer<typeof DeliveryListAnswerSchema>;

/** Answer of POST /api/notifications/delivery/{id}/resend: the delivery, queued again. */
export const DeliveryResendAnswerSchema = z.object({ delivery: DeliverySchema });
export type DeliveryResendAnswer = z.infer<typeof DeliveryResendAnswerSchema>;
