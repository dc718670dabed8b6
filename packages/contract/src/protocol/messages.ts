import { z } from "zod";
import { COMMAND_TYPES, type CommandType, EVENT_LEVELS } from "../lists";
import { byteCount, envelopeShape, MAX_DEVICE_TIME_MS, percent, reportText, seconds } from "./fields";
import { COMMAND_ID_PATTERN } from "./topics";

/** Largest payload of any protocol message, in bytes; larger ones are refused unread. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

/** `hello`: who the device is; published after every connect, before anything else. */
export const HelloMessageSchema = z.object({
  ...envelopeShape,
  vendor: reportText.optional(),
  model: reportText,
  firmware: reportText,
  serial: reportText,
  /** Seconds since the router booted. */
  uptime: seconds,
  /** Version of the agent software speaking this protocol, e.g. "1.4.2". */
  agent_version: reportText,
  modem_count: z.int().min(0).max(8),
  /** Command types the agent can run; absent means all of {@link COMMAND_TYPES}. */
  command_types: z.array(z.enum(COMMAND_TYPES)).max(COMMAND_TYPES.length).optional(),
});
/** A `hello` payload. */
export type HelloMessage = z.infer<typeof HelloMessageSchema>;

/** Event kinds of spec section 3, in snake_case. */
export const EVENT_KINDS = [
  "command_needs_approval",
  "user_reset_password",
  "time_sync_error",
  "battery_status_change",
  "sim_switched",
  "default_route_changed",
  "gpio_value_change",
  "tunnel_status",
  "interface_degraded",
  "router_started",
  "hardware_event",
  "event_needs_read",
] as const;
/** One of {@link EVENT_KINDS}. */
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * The event kinds a device may publish. The other two (`command_needs_approval`,
 * `user_reset_password`) are raised by the server about people, so a device cannot forge them.
 */
export const DEVICE_EVENT_KINDS = [
  "time_sync_error",
  "battery_status_change",
  "sim_switched",
  "default_route_changed",
  "gpio_value_change",
  "tunnel_status",
  "interface_degraded",
  "router_started",
  "hardware_event",
  "event_needs_read",
] as const satisfies readonly EventKind[];
/** One of {@link DEVICE_EVENT_KINDS}. */
export type DeviceEventKind = (typeof DEVICE_EVENT_KINDS)[number];

/** Most keys of an event's `details` or a command's `args`. */
export const MAX_OBJECT_KEYS = 32;

const boundedKeys = <T extends Record<string, unknown>>(value: T) =>
  Object.keys(value).length <= MAX_OBJECT_KEYS;

/** `event`: something happened on the router. */
export const DeviceEventMessageSchema = z.object({
  ...envelopeShape,
  kind: z.enum(DEVICE_EVENT_KINDS),
  level: z.enum(EVENT_LEVELS),
  /** Human-readable text, shown as is in the console. */
  message: z.string().min(1).max(1024),
  /** Machine-readable facts about the event (which SIM, which tunnel); any JSON values. */
  details: z
    .record(z.string().min(1).max(64), z.unknown())
    .refine(boundedKeys, { message: `at most ${MAX_OBJECT_KEYS} keys` })
    .default({}),
});
/** An `event` payload. */
export type DeviceEventMessage = z.infer<typeof DeviceEventMessageSchema>;

/** How a command moves a file: GET downloads to the device, PUT uploads the file as the request body. */
export const FILE_TRANSFER_METHODS = ["GET", "PUT"] as const;

/** A file transfer a command asks for, over HTTP(S) with a short-lived signed URL. */
export const CommandFileSchema = z.object({
  /** Signed URL; carries its own authorisation, so the device sends no other credential. */
  url: z.url({ protocol: /^https?$/ }).max(2048),
  method: z.enum(FILE_TRANSFER_METHODS),
  /** When the URL stops working, ms since the epoch (server time). */
  expires_at: z.int().min(0).max(MAX_DEVICE_TIME_MS),
  /** File name to keep or to report; plain name, no path. */
  filename: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^/\\]+$/)
    .optional(),
  /** For downloads: size in bytes and SHA-256 (lowercase hex) the device must check before using the file. */
  size: byteCount.optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
/** The `file` of a command. */
export type CommandFile = z.infer<typeof CommandFileSchema>;

const argValue = z.union([z.string().max(16_384), z.number(), z.boolean(), z.null()]);

/** Types whose command must carry a file to download (GET) or a place to upload to (PUT). */
export const COMMAND_FILE_METHOD: Partial<Record<CommandType, (typeof FILE_TRANSFER_METHODS)[number]>> = {
  download: "GET",
  pkg_install: "GET",
  fw_update: "GET",
  restore: "GET",
  backup: "PUT",
  journal: "PUT",
};

/** `command` (server → device): run something. */
export const CommandMessageSchema = z
  .object({
    ...envelopeShape,
    id: z.string().regex(COMMAND_ID_PATTERN),
    type: z.enum(COMMAND_TYPES),
    /** Type-specific arguments; `shell` takes `script`. Flat: strings, numbers, booleans, null. */
    args: z
      .record(z.string().min(1).max(64), argValue)
      .refine(boundedKeys, { message: `at most ${MAX_OBJECT_KEYS} keys` })
      .default({}),
    file: CommandFileSchema.optional(),
    /** Do not start the command after this time, ms since the epoch; report `failed` instead. */
    run_until: z.int().min(0).max(MAX_DEVICE_TIME_MS).optional(),
  })
  .superRefine((command, context) => {
    if (command.type === "shell" && typeof command.args.script !== "string") {
      context.addIssue({
        code: "custom",
        path: ["args", "script"],
        message: "a shell command needs a script",
      });
    }
    const method = COMMAND_FILE_METHOD[command.type];
    if (method !== undefined && command.file?.method !== method) {
      context.addIssue({ code: "custom", path: ["file"], message: `${command.type} needs a ${method} file` });
    }
  });
/** A `command` payload. */
export type CommandMessage = z.infer<typeof CommandMessageSchema>;

/** Command progress as the device reports it; `completed` and `failed` are final. */
export const COMMAND_STATES = ["accepted", "running", "completed", "failed"] as const;
/** One of {@link COMMAND_STATES}. */
export type CommandState = (typeof COMMAND_STATES)[number];

/** Most characters of a command's `output`. */
export const MAX_COMMAND_OUTPUT_LENGTH = 64 * 1024;

/** `command/{id}/status` (device → server): how a command is going. */
export const CommandStatusMessageSchema = z
  .object({
    ...envelopeShape,
    /** The command's id; equals the `{id}` of the topic. */
    id: z.string().regex(COMMAND_ID_PATTERN),
    state: z.enum(COMMAND_STATES),
    /** Completion code: 0 success, anything else failure; null until the command ends. */
    code: z.int().min(-2_147_483_648).max(2_147_483_647).nullable(),
    /** Output or error text (the tail if longer than the limit). */
    output: z.string().max(MAX_COMMAND_OUTPUT_LENGTH).default(""),
    /** Progress of a long command (a transfer), percent. */
    progress: percent.optional(),
  })
  .refine(
    (status) => (status.state === "completed" || status.state === "failed") === (status.code !== null),
    {
      path: ["code"],
      message: "completed and failed carry a code; accepted and running carry null",
    },
  );
/** A `command/{id}/status` payload. */
export type CommandStatusMessage = z.infer<typeof CommandStatusMessageSchema>;

/** Conventional completion codes the agent uses when the command itself did not produce one. */
export const COMMAND_CODES = {
  success: 0,
  /** Generic failure. */
  failed: 1,
  /** `run_until` had passed before the command could start, or it ran out of time. */
  expired: 124,
  /** The agent cannot run this command type. */
  unsupported: 127,
  /** A file transfer failed (HTTP error, checksum mismatch, expired URL). */
  transferFailed: 75,
} as const;
