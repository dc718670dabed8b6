import { z } from "zod";

// Saved scripts (shell) and settings templates (configuration with variables), versioned (spec
// sections 2 and 3; issue 13). A command that uses one records the version it used.

/** Variables the router itself supplies; a template, a tag or a device value never overwrites them. */
export const SYSTEM_VARIABLES = ["ident", "model", "serial", "firmware", "description"] as const;
export type SystemVariable = (typeof SYSTEM_VARIABLES)[number];

/** Whether a name is a system variable. */
export function isSystemVariable(name: string): name is SystemVariable {
  return (SYSTEM_VARIABLES as readonly string[]).includes(name);
}

/** A variable's name as written in a template: `{{name}}`. */
export const VARIABLE_NAME = /^[a-z_][a-z0-9_]{0,39}$/i;
const variableName = z.string().regex(VARIABLE_NAME);
const variableValue = z.string().max(1024);
/** Variable values by name. */
const values = z.record(variableName, variableValue);

/** Most bytes of a script's or template's text. */
export const MAX_SCRIPT_TEXT = 16 * 1024;

/** What a saved script or template is. */
export const SCRIPT_KINDS = ["script", "template"] as const;
export type ScriptKind = (typeof SCRIPT_KINDS)[number];

/** Body of a save: a script's text, or a template's text with its variables' values. */
export const SaveScriptSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).default(""),
  text: z.string().min(1).max(MAX_SCRIPT_TEXT),
  /** Templates: the default value of each variable. */
  defaults: values.default({}),
  /** Templates: values by tag (a router with several tags takes the first tag, by name, that has one). */
  tag_values: z.record(z.string().min(1).max(25), values).default({}),
  /** Templates: values by router id (over the tag's and the default). */
  device_values: z.record(z.string().min(1).max(64), values).default({}),
});
export type SaveScript = z.input<typeof SaveScriptSchema>;
export type SaveScriptInput = z.output<typeof SaveScriptSchema>;

/** One saved version. */
export const ScriptVersionSchema = z.object({
  version: z.number().int(),
  author: z.object({ _id: z.string(), name: z.string() }),
  create_time: z.number(),
});

/** A saved script or template at its latest version (with the older versions listed). */
export const SavedScriptSchema = z.object({
  _id: z.string(),
  kind: z.enum(SCRIPT_KINDS),
  name: z.string(),
  description: z.string(),
  version: z.number().int(),
  text: z.string(),
  defaults: z.record(z.string(), z.string()),
  tag_values: z.record(z.string(), z.record(z.string(), z.string())),
  device_values: z.record(z.string(), z.record(z.string(), z.string())),
  /** The variables the text uses, in order of first use. */
  variables: z.array(z.string()),
  create_time: z.number(),
  update_time: z.number(),
  versions: z.array(ScriptVersionSchema),
});
export type SavedScript = z.infer<typeof SavedScriptSchema>;

/** A list row. */
export const SavedScriptRowSchema = SavedScriptSchema.pick({
  _id: true,
  kind: true,
  name: true,
  description: true,
  version: true,
  update_time: true,
});
export type SavedScriptRow = z.infer<typeof SavedScriptRowSchema>;

/** Body of POST /api/templates/ and /api/scripts/. */
export const ScriptsRequestSchema = z.object({ search: z.string().trim().max(100).default("") });
export const ScriptsAnswerSchema = z.object({ items: z.array(SavedScriptRowSchema) });

const VARIABLE_USE = /\{\{\s*([a-z_][a-z0-9_]{0,39})\s*\}\}/gi;

/** The variables a template's text uses, in order of first use. */
export function templateVariables(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(VARIABLE_USE)) {
    const name = match[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** What a template is rendered for: the router's own facts and where its values come from. */
export interface RenderTarget {
  id: string;
  tags: readonly string[];
  system: Readonly<Record<SystemVariable, string>>;
}

/** A template's values: defaults, by tag, by router. */
export type TemplateValues = Pick<SaveScriptInput, "defaults" | "tag_values" | "device_values">;

/**
 * The value of each variable for one router: the router's own value over its tag's over the
 * template's default; system variables are always the router's facts.
 */
export function resolveVariables(values: TemplateValues, target: RenderTarget): Record<string, string> {
  const tag = [...target.tags].sort().find((name) => values.tag_values[name] !== undefined);
  const merged: Record<string, string> = {
    ...values.defaults,
    ...(tag ? values.tag_values[tag] : {}),
    ...(values.device_values[target.id] ?? {}),
  };
  return { ...merged, ...target.system };
}

/** A template rendered for one router, or the variables it lacks a value for. */
export type RenderResult = { ok: true; text: string } | { ok: false; missing: string[] };

/** Renders a template's text for one router (see {@link resolveVariables}). */
export function renderTemplate(text: string, values: TemplateValues, target: RenderTarget): RenderResult {
  const resolved = resolveVariables(values, target);
  const missing = templateVariables(text).filter((name) => resolved[name] === undefined);
  if (missing.length > 0) return { ok: false, missing };
  return { ok: true, text: text.replace(VARIABLE_USE, (_all, name: string) => resolved[name] as string) };
}

/** The system variables a save tries to set (refused: they are the router's own). */
export function systemVariablesSet(input: TemplateValues): string[] {
  const sets = [input.defaults, ...Object.values(input.tag_values), ...Object.values(input.device_values)];
  const names = new Set<string>();
  for (const set of sets) for (const name of Object.keys(set)) if (isSystemVariable(name)) names.add(name);
  return [...names];
}
