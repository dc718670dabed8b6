import {
  type EventLevel,
  MONITORS,
  type MonitorName,
  monitorVariablesWithDefaults,
  type Rule,
  type RuleFields,
} from "@cellfleet/contract";

/** A new rule's tolerance. */
export const DEFAULT_TOLERANCE_MINUTES = 5;

/** The rule form's values: texts as typed, so a form can hold what is not valid yet. */
export interface RuleFormValues {
  name: string;
  active: boolean;
  monitor: MonitorName;
  check_delay: string;
  variables: Record<string, string>;
  transport_id: string;
  filter_tags: string[];
  filter_levels: EventLevel[];
  tolerance: string;
}

/** The form of a rule (or of a new one watching `monitor`). */
export function toRuleForm(rule: Rule | null, monitor: MonitorName = "device_status"): RuleFormValues {
  const name = rule?.monitor.name ?? monitor;
  return {
    name: rule?.name ?? "",
    active: rule ? rule.active || rule.draft : true,
    monitor: name,
    check_delay: rule?.monitor.check_delay?.toString() ?? defaultCheckDelay(name),
    variables: monitorVariablesWithDefaults(name, rule?.monitor.variables ?? {}),
    transport_id: rule?.transport?._id ?? "",
    filter_tags: rule?.filter_tags ?? [],
    filter_levels: rule?.filter_levels ?? [],
    // Cellular links flap: a new rule waits five minutes before it speaks, unless told otherwise.
    tolerance: String(rule?.tolerance_minutes ?? DEFAULT_TOLERANCE_MINUTES),
  };
}

/** A timer's check_delay default as the form shows it (empty for reactive monitors). */
export function defaultCheckDelay(monitor: MonitorName): string {
  return MONITORS[monitor].checkDelay?.default.toString() ?? "";
}

/** The values after another monitor is chosen: its variables and check_delay start from their defaults. */
export function withMonitor(values: RuleFormValues, monitor: MonitorName): RuleFormValues {
  return {
    ...values,
    monitor,
    check_delay: defaultCheckDelay(monitor),
    variables: monitorVariablesWithDefaults(monitor),
    filter_levels: monitor === "device_event" ? values.filter_levels : [],
  };
}

/** The body the server takes; a draft keeps what is filled in and may lack the rest. */
export function toRuleBody(values: RuleFormValues, isDraft: boolean): RuleFields {
  const definition = MONITORS[values.monitor];
  const delay = values.check_delay.trim();
  const isDelayNumber = /^\d+$/.test(delay);
  return {
    name: values.name.trim(),
    active: values.active,
    draft: isDraft,
    monitor: {
      name: values.monitor,
      check_delay: definition.type === "timer" && isDelayNumber ? Number(delay) : null,
      variables: Object.fromEntries(
        definition.variables.map((variable) => [
          variable.name,
          values.variables[variable.name] ?? variable.default,
        ]),
      ),
    },
    transport_id: values.transport_id || null,
    filter_tags: definition.subject === "device" ? values.filter_tags : [],
    filter_levels: values.monitor === "device_event" ? values.filter_levels : [],
    tolerance_minutes: definition.style === "digest" ? 0 : Number(values.tolerance.trim() || "0"),
  };
}
