import { z } from "zod";
import { COMMAND_TYPES, type CommandType } from "../lists";
import { ActionResultSchema, ActionStatusSchema } from "../statusSchemas";
import { EXECUTION_STATUSES } from "./machine";

// Commands (actions) as the HTTP API and the realtime socket send them (spec sections 3 and 7).

/** Most routers a command names by id, and most tags. */
export const MAX_COMMAND_DEVICES = 100_000;
export const MAX_COMMAND_TAGS = 50;
/** How often an unacknowledged execution is published to a connected router before it gives up. */
export const MAX_DELIVERY_ATTEMPTS = 5;

/** Whether a type is one of the built-in types (custom types are shell commands under a name). */
export function isBuiltInCommandType(type: string): type is CommandType {
  return (COMMAND_TYPES as readonly string[]).includes(type);
}

/** The built-in types that move a file to the router (GET) or from it (PUT). */
export const COMMAND_TYPES_WITH_DOWNLOAD: readonly CommandType[] = [
  "download",
  "pkg_install",
  "fw_update",
  "restore",
];
export const COMMAND_TYPES_WITH_UPLOAD = ["backup", "journal"] as const satisfies readonly CommandType[];

/** Whether the router answers a command of this type by uploading a file (its backup or journal). */
export function isUploadCommandType(type: CommandType): type is (typeof COMMAND_TYPES_WITH_UPLOAD)[number] {
  return (COMMAND_TYPES_WITH_UPLOAD as readonly CommandType[]).includes(type);
}

/** Whom a command goes to: routers by id, routers carrying any of the tags, or the whole domain. */
export const CommandTargetsSchema = z.object({
  devices: z.array(z.string().min(1)).max(MAX_COMMAND_DEVICES).default([]),
  tags: z.array(z.string().min(1).max(25)).max(MAX_COMMAND_TAGS).default([]),
  all: z.boolean().default(false),
});
/** Targets as sent. */
export type CommandTargets = z.input<typeof CommandTargetsSchema>;

const argValue = z.union([z.string().max(16 * 1024), z.number(), z.boolean(), z.null()]);

/**
 * Body of POST /api/command/new (and of the dry run, POST /api/commands/dry-run). `type` is a built-in
 * type or a custom type's name; `shell` takes `args.script` (the text is kept with the command); file types take a
 * `file_id` (downloads). Times are ms since the epoch.
 */
export const CreateCommandSchema = z.object({
  type: z.string().trim().max(64).default(""),
  args: z.record(z.string().min(1).max(64), argValue).default({}),
  file_id: z.string().min(1).optional(),
  /** shell: a saved script (its latest version) instead of `args.script`. */
  script_id: z.string().min(1).max(64).optional(),
  /** settings: the template, rendered for each router. */
  template_id: z.string().min(1).max(64).optional(),
  targets: CommandTargetsSchema.default({ devices: [], tags: [], all: false }),
  delayed_until: z.number().int().min(0).nullable().default(null),
  run_until: z.number().int().min(0).nullable().default(null),
});
/** Body of a new command. */
export type CreateCommand = z.input<typeof CreateCommandSchema>;
/** Parsed body of a new command. */
export type CreateCommandInput = z.output<typeof CreateCommandSchema>;

/** What the dry run answers: how many routers, how many offline now, and who must approve. */
export const CommandDryRunSchema = z.object({
  targets: z.number().int(),
  offline: z.number().int(),
  /** Targets whose hello did not name the type: their executions fail unsent, the others run it. */
  unsupported: z.number().int(),
  /** Up to 20 of the targets, for the person to recognise. */
  sample: z.array(z.object({ _id: z.string(), ident: z.string(), is_online: z.boolean() })),
  needs_approval: z.boolean(),
  /** A script's text, or a template rendered for the first target: what the router would get. */
  rendered: z.object({ ident: z.string().nullable(), text: z.string() }).nullable(),
  /** The kinds of people who may approve it (empty when none is needed). */
  approvers: z.array(z.enum(["admin", "assistant"])),
});
export type CommandDryRun = z.infer<typeof CommandDryRunSchema>;

const person = z.object({ _id: z.string(), name: z.string() });
/** The author, with what the approval rules read (a junior assistant's needs less than an assistant's). */
const author = person.extend({
  role: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  is_junior: z.boolean(),
});

/** A command (spec section 3), with its executions counted by status. */
export const CommandSchema = z.object({
  _id: z.string(),
  type: z.string(),
  status: ActionStatusSchema,
  author,
  approver: person.nullable(),
  declined_reason: z.string().nullable(),
  args: z.record(z.string(), z.unknown()),
  file_id: z.string().nullable(),
  /** The saved script or template used, at the version used. */
  script: z
    .object({
      _id: z.string(),
      kind: z.enum(["script", "template"]),
      name: z.string(),
      version: z.number().int(),
    })
    .nullable(),
  targets: z.object({ devices: z.array(z.string()), tags: z.array(z.string()), all: z.boolean() }),
  delayed_until: z.number().nullable(),
  run_until: z.number().nullable(),
  needs_approval: z.boolean(),
  create_time: z.number(),
  update_time: z.number(),
  total: z.number().int(),
  counts: z.partialRecord(z.enum(EXECUTION_STATUSES), z.number().int()),
});
/** A command as answered and pushed. */
export type Command = z.infer<typeof CommandSchema>;

/** One router's execution of a command: the spec's report (attempts, result, completion code, files). */
export const ExecutionSchema = z.object({
  _id: z.string(),
  command_id: z.string(),
  type: z.string(),
  device: z.object({ _id: z.string(), ident: z.string() }),
  status: z.enum(EXECUTION_STATUSES),
  result: ActionResultSchema,
  code: z.number().int().nullable(),
  output: z.string(),
  /** The text this router got when a template was rendered for it. */
  rendered: z.string().nullable(),
  progress: z.number().nullable(),
  attempts: z.number().int(),
  file_id: z.string().nullable(),
  create_time: z.number(),
  update_time: z.number(),
  finish_time: z.number().nullable(),
});
/** An execution (report). */
export type Execution = z.infer<typeof ExecutionSchema>;

/** Body of POST /api/commands/ (NDJSON answer, newest first) — the list card's request. */
export const CommandsRequestSchema = z.object({
  status: z.array(ActionStatusSchema).optional(),
  type: z.array(z.string()).optional(),
  limit: z.number().int().min(1).max(2048).default(2048),
  offset: z.number().int().min(0).default(0),
});
export type CommandsRequest = z.input<typeof CommandsRequestSchema>;

/**
 * Answer of POST /api/commands/waiting: the commands waiting for a decision the caller may make
 * (never their own), how many, and the newest few, for the bell and the actions list (issue 27).
 */
export const WaitingApprovalsSchema = z.object({
  count: z.number().int(),
  items: z.array(CommandSchema),
});
export type WaitingApprovals = z.infer<typeof WaitingApprovalsSchema>;

/** How many waiting commands the bell lists; the count covers them all. */
export const WAITING_APPROVALS_SHOWN = 5;

/** Body of POST /api/command/{id}/approve and /decline. */
export const CommandDecisionSchema = z.object({ reason: z.string().trim().max(500).default("") });
export type CommandDecision = z.input<typeof CommandDecisionSchema>;

/** Body of POST /api/reports/ (NDJSON answer): executions, of one router or of the domain. */
export const ReportsRequestSchema = z.object({
  device_id: z.string().optional(),
  command_id: z.string().optional(),
  status: z.array(z.enum(EXECUTION_STATUSES)).optional(),
  limit: z.number().int().min(1).max(2048).default(2048),
  offset: z.number().int().min(0).default(0),
});
export type ReportsRequest = z.input<typeof ReportsRequestSchema>;

/** A custom command type (spec section 3): a named shell command. */
export const CommandTypeSchema = z.object({
  _id: z.string(),
  type: z.string(),
  command: z.string(),
  system: z.boolean(),
});
export type CommandTypeDto = z.infer<typeof CommandTypeSchema>;

/** Body of POST /api/command_type (admins): a new custom type. */
export const CreateCommandTypeSchema = z.object({
  type: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\p{L}\p{N}_ -]+$/u),
  command: z
    .string()
    .trim()
    .min(1)
    .max(16 * 1024),
});
export type CreateCommandType = z.input<typeof CreateCommandTypeSchema>;

/** Answer of POST /api/command_types: built-in and custom types, and the quick list (most used first). */
export const CommandTypesAnswerSchema = z.object({
  types: z.array(CommandTypeSchema),
  quick: z.array(z.string()),
});
export type CommandTypesAnswer = z.infer<typeof CommandTypesAnswerSchema>;

/** The realtime `commands` message: commands changed (their DTOs) and executions changed. */
export interface CommandsSocketContent {
  commands: Command[];
  executions: Execution[];
}
