import { z } from "zod";
import { DEVICE_STATUSES } from "./lists";
import { ACTION_RESULTS, ACTION_STATUSES, THRESHOLD_STATUSES } from "./status";

// The zod schemas of status.ts's lists, apart from its rules so that the web's start path can use
// the rules without zod (ADR 026).

/** Zod schema of a device status. */
export const DeviceStatusSchema = z.enum(DEVICE_STATUSES);

/** Zod schema of a configured status (the range of its minutes is checked by `validateStatusMinutes`). */
export const StatusThresholdSchema = z.object({
  name: z.enum(THRESHOLD_STATUSES),
  minutes: z.number().int(),
});

/** Zod schema of an action status. */
export const ActionStatusSchema = z.enum(ACTION_STATUSES);

/** Zod schema of an action or report result. */
export const ActionResultSchema = z.enum(ACTION_RESULTS);
