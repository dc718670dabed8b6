import { COMMAND_TYPES, SETTINGS_COMMAND_TYPE } from "@cellfleet/contract";

/** A built-in type's label, or a custom type's own name. */
export function typeLabel(t: (key: string) => string, type: string): string {
  return (COMMAND_TYPES as readonly string[]).includes(type) || type === SETTINGS_COMMAND_TYPE
    ? t(`commands.types.${type}`)
    : type;
}
