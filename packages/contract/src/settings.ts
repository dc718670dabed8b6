import { z } from "zod";
import { EVENT_KINDS } from "./protocol/messages";
import { RolloutWindowSchema } from "./rollout-driver";
import { TimeZoneSchema } from "./schedules";
import { DEFAULT_STATUS_THRESHOLDS, THRESHOLD_STATUSES } from "./status";
import { StatusThresholdSchema } from "./statusSchemas";
import { DEFAULT_REMOTE_ACCESS, RemoteAccessSettingsSchema } from "./tunnels";
import { CopiesSchema, StatusMinutesSchema, validateStatusThresholds } from "./validators/numbers";

/**
 * Domain settings (spec section 3): the minutes of each status but critical, the copies kept
 * of backups and journals, and the domain's IANA time zone (schedule rules' times, maintenance windows). PATCH /api/settings/domains-all takes it; POST /api/settings/all answers it.
 * Each of online, pending and warning appears once; online's minutes may not exceed pending's, nor
 * pending's warning's.
 */
export const DomainSettingsSchema = z
  .object({
    status: z
      .array(StatusThresholdSchema.extend({ minutes: StatusMinutesSchema }))
      .length(THRESHOLD_STATUSES.length),
    backup: z.object({ copies: CopiesSchema }),
    journal: z.object({ copies: CopiesSchema }),
    time_zone: TimeZoneSchema,
    /**
     * Root's firmware rollouts offered to the domain (ADR 031): accepted at once by this setting,
     * and sent inside this maintenance window (null: any time); else each waits for an admin.
     */
    rollouts: z
      .object({ auto_accept: z.boolean(), window: RolloutWindowSchema.nullable() })
      .default({ auto_accept: false, window: null }),
    /** Remote access's limits per session (ADR 038): idle time-out, absolute limit, bandwidth, quota. */
    remote_access: RemoteAccessSettingsSchema.default(DEFAULT_REMOTE_ACCESS),
  })
  .superRefine((settings, ctx) => {
    const names = new Set(settings.status.map((entry) => entry.name));
    if (names.size !== settings.status.length) {
      ctx.addIssue({ code: "custom", message: "BAD_REQUEST", path: ["status"], input: settings.status });
    }
    validateStatusThresholds(settings.status).forEach((key, index) => {
      if (key !== null)
        ctx.addIssue({ code: "custom", message: key, path: ["status", index, "minutes"], input: key });
    });
  });
/** Domain settings. */
export type DomainSettings = z.infer<typeof DomainSettingsSchema>;

/** Settings a new domain starts with: the default thresholds (see there) and 10 copies of each kind; our choice. */
export const DEFAULT_DOMAIN_SETTINGS: DomainSettings = {
  status: DEFAULT_STATUS_THRESHOLDS.map((threshold) => ({ ...threshold })),
  backup: { copies: 10 },
  journal: { copies: 10 },
  time_zone: "UTC",
  rollouts: { auto_accept: false, window: null },
  remote_access: { ...DEFAULT_REMOTE_ACCESS },
};

/** Body of PATCH /api/settings/domains-all: the whole domain settings (token optional, as on every call). */
export const SaveDomainSettingsRequestSchema = DomainSettingsSchema;
/** Answer of POST /api/settings/all and PATCH /api/settings/domains-all: the domain's settings as stored. */
export const DomainSettingsAnswerSchema = z.object({ settings: DomainSettingsSchema });
/** Answer of the settings calls. */
export type DomainSettingsAnswer = z.infer<typeof DomainSettingsAnswerSchema>;

/**
 * An event type of the domain (spec section 3): `_id` is the event kind (one of EVENT_KINDS), unique
 * within a domain. An inactive type's events are still stored and listed, but arrive read: they
 * raise no 'new' badge and no notification.
 */
export const EventTypeSchema = z.object({
  _id: z.enum(EVENT_KINDS),
  type: z.enum(EVENT_KINDS),
  active: z.boolean(),
});
/** An event type. */
export type EventType = z.infer<typeof EventTypeSchema>;
/** Answer of POST /api/event_types: every kind, in the order of EVENT_KINDS. */
export const EventTypesAnswerSchema = z.object({ items: z.array(EventTypeSchema) });
/** Body of PATCH /api/event_type/{id}. */
export const EventTypeActiveRequestSchema = z.object({ active: z.boolean() });
/** Answer of PATCH /api/event_type/{id}: the type as stored. */
export const EventTypeAnswerSchema = z.object({ item: EventTypeSchema });
