import { z } from "zod";
import { DEVICE_EVENT_KINDS } from "../protocol/messages";
import { monitorVariableOptions, validateMonitorVariable } from "../validators/choices";
import { validateCheckDelay } from "../validators/numbers";

// The monitors of notification rules (spec sections 3 and 5): what a rule watches, how often a timer
// looks, and the variables that narrow it. One catalogue for the server's engine and the web's form.

/** Every monitor a rule may watch: six reactive ones and four timers (spec section 3). */
export const MONITOR_NAMES = [
  "device_connected",
  "device_event",
  "device_status",
  "user_action",
  "password_expired",
  "password_reset",
  "connect",
  "check_interval",
  "notify_in_advance",
  "firmware_update",
] as const;
/** A monitor's name. */
export type MonitorName = (typeof MONITOR_NAMES)[number];
export const MonitorNameSchema = z.enum(MONITOR_NAMES);

/** Reactive monitors answer something that happened; timers look on their own every check_delay. */
export type MonitorType = "reactive" | "timer";

/**
 * How findings become messages (alert hygiene, because cellular links flap):
 * - `state`: a problem starts and ends; it must last the rule's tolerance before it is sent, and
 *   its end is sent once;
 * - `occurrence`: each happening is sent once; repeats within the rule's tolerance window are
 *   counted into the same incident and summed up when it closes, not re-sent;
 * - `digest`: a periodic summary of what is wrong now (nothing wrong, nothing sent).
 */
export type MonitorStyle = "state" | "occurrence" | "digest";

/** What a monitor's findings are about: a router of the domain, or a person's account. */
export type MonitorSubject = "device" | "account";

/** A variable of a monitor: a value that must match `pattern` whole; `a|b` patterns are a choice. */
export interface MonitorVariable {
  readonly name: string;
  readonly pattern: string;
  readonly default: string;
}

/** One monitor of the catalogue. */
export interface MonitorDefinition {
  readonly name: MonitorName;
  readonly type: MonitorType;
  readonly style: MonitorStyle;
  readonly subject: MonitorSubject;
  /** Timers only: what check_delay counts and its default. */
  readonly checkDelay?: { readonly unit: "minutes" | "hours"; readonly default: number };
  readonly variables: readonly MonitorVariable[];
  /**
   * A monitor that fires once another part of the product feeds it (licences, firmware rules:
   * later issues). Rules may be saved now; they fire when the hook has a source.
   */
  readonly hook?: "license" | "firmware";
  /** Superusers have no device views, so they watch only accounts (and licences, firmware). */
  readonly forSuperusers: boolean;
}

/** The kinds a `device_event` rule may pick, or `any`. */
const EVENT_KIND_PATTERN = ["any", ...DEVICE_EVENT_KINDS].join("|");

/** The monitor catalogue, in the order the form offers it. */
export const MONITORS: Readonly<Record<MonitorName, MonitorDefinition>> = {
  device_connected: {
    name: "device_connected",
    type: "reactive",
    style: "occurrence",
    subject: "device",
    variables: [],
    forSuperusers: false,
  },
  device_event: {
    name: "device_event",
    type: "reactive",
    style: "occurrence",
    subject: "device",
    variables: [
      { name: "kind", pattern: EVENT_KIND_PATTERN, default: "any" },
      // Free text: only events whose message contains it (empty: every message).
      { name: "contains", pattern: "[^\\n]{0,64}", default: "" },
    ],
    forSuperusers: false,
  },
  device_status: {
    name: "device_status",
    type: "reactive",
    style: "state",
    subject: "device",
    // `warning` means warning or worse.
    variables: [{ name: "status", pattern: "critical|warning", default: "critical" }],
    forSuperusers: false,
  },
  user_action: {
    name: "user_action",
    type: "reactive",
    style: "occurrence",
    subject: "device",
    variables: [{ name: "action", pattern: "any|edit|delete|command", default: "any" }],
    forSuperusers: false,
  },
  password_expired: {
    name: "password_expired",
    type: "reactive",
    style: "occurrence",
    subject: "account",
    variables: [],
    forSuperusers: true,
  },
  password_reset: {
    name: "password_reset",
    type: "reactive",
    style: "occurrence",
    subject: "account",
    variables: [],
    forSuperusers: true,
  },
  connect: {
    name: "connect",
    type: "timer",
    style: "state",
    subject: "device",
    checkDelay: { unit: "minutes", default: 30 },
    variables: [],
    forSuperusers: false,
  },
  check_interval: {
    name: "check_interval",
    type: "timer",
    style: "digest",
    subject: "device",
    checkDelay: { unit: "hours", default: 24 },
    variables: [{ name: "status", pattern: "critical|warning", default: "critical" }],
    forSuperusers: false,
  },
  notify_in_advance: {
    name: "notify_in_advance",
    type: "timer",
    style: "occurrence",
    subject: "account",
    checkDelay: { unit: "hours", default: 72 },
    variables: [{ name: "subject", pattern: "password|license", default: "password" }],
    hook: "license",
    forSuperusers: true,
  },
  firmware_update: {
    name: "firmware_update",
    type: "timer",
    style: "occurrence",
    subject: "device",
    checkDelay: { unit: "hours", default: 24 },
    variables: [],
    hook: "firmware",
    forSuperusers: false,
  },
};

/** A monitor as a rule stores it: its name, check_delay (timers) and variables. */
export const RuleMonitorSchema = z.object({
  name: MonitorNameSchema,
  check_delay: z.number().nullable().optional(),
  variables: z.record(z.string().max(32), z.string().max(255)).default({}),
});
/** A monitor as a rule stores it. */
export type RuleMonitor = z.infer<typeof RuleMonitorSchema>;

/** One problem of a rule's monitor: the field (`check_delay` or `variables.<name>`) and its key. */
export interface MonitorProblem {
  readonly field: string;
  readonly key: "required" | "checkDelayInvalid" | "patternMismatch" | "unknownVariable";
}

/**
 * The monitor's check_delay and variables as the rules of spec section 5 judge them: a timer needs
 * a positive check_delay without a leading zero, a reactive monitor has none; each variable must
 * match its pattern whole, and no unknown variable is kept. Answers every problem (empty: valid).
 */
export function checkRuleMonitor(monitor: {
  name: MonitorName;
  check_delay?: number | string | null;
  variables?: Readonly<Record<string, string>>;
}): MonitorProblem[] {
  const definition = MONITORS[monitor.name];
  const problems: MonitorProblem[] = [];
  if (definition.type === "timer") {
    const key = validateCheckDelay(monitor.check_delay ?? null);
    if (key) problems.push({ field: "check_delay", key });
  }
  const variables = monitor.variables ?? {};
  for (const name of Object.keys(variables)) {
    if (!definition.variables.some((variable) => variable.name === name)) {
      problems.push({ field: `variables.${name}`, key: "unknownVariable" });
    }
  }
  for (const variable of definition.variables) {
    const value = variables[variable.name] ?? variable.default;
    if (validateMonitorVariable(value, variable.pattern)) {
      problems.push({ field: `variables.${variable.name}`, key: "patternMismatch" });
    }
  }
  return problems;
}

/** The variables of a monitor with every default filled in. */
export function monitorVariablesWithDefaults(
  name: MonitorName,
  variables: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return Object.fromEntries(
    MONITORS[name].variables.map((variable) => [variable.name, variables[variable.name] ?? variable.default]),
  );
}

/** The choices of a variable (its `a|b` alternatives), or null when it is free text. */
export function monitorVariableChoices(variable: MonitorVariable): string[] | null {
  return monitorVariableOptions(variable.pattern);
}

/** The monitors a person may choose: superusers only those about accounts (no device views). */
export function monitorsFor(isSuperuser: boolean): MonitorDefinition[] {
  return MONITOR_NAMES.map((name) => MONITORS[name]).filter(
    (monitor) => !isSuperuser || monitor.forSuperusers,
  );
}
