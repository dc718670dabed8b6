import { z } from "zod";
import { StatusThresholdSchema, THRESHOLD_STATUSES } from "./status";
import { CopiesSchema, StatusMinutesSchema, validateStatusThresholds } from "./validators/numbers";

/**
 * Domain settings (spec section 3): the minutes of each status but critical, and the copies kept
 * of backups and journals. PATCH /api/settings/domains-all takes it; POST /api/settings/all answers it.
 * Each of online and warning appears once, and online's minutes may not exceed warning's.
 */
export const DomainSettingsSchema = z
  .object({
    status: z
      .array(StatusThresholdSchema.extend({ minutes: StatusMinutesSchema }))
      .length(THRESHOLD_STATUSES.length),
    backup: z.object({ copies: CopiesSchema }),
    journal: z.object({ copies: CopiesSchema }),
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

/** Settings a new domain starts with: the default thresholds and 10 copies of each kind; our choice. */
export const DEFAULT_DOMAIN_SETTINGS: DomainSettings = {
  status: [
    { name: "online", minutes: 15 },
    { name: "warning", minutes: 60 },
  ],
  backup: { copies: 10 },
  journal: { copies: 10 },
};
