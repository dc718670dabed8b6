import { COMMAND_TYPES, SETTINGS_COMMAND_TYPE } from "@cellfleet/contract";

/** A built-in type's label, or a custom type's own name. */
export function typeLabel(t: (key: string) => string, type: string): string {
  return (COMMAND_TYPES as readonly string[]).includes(type) || type === SETTINGS_COMMAND_TYPE
    ? t(`commands.types.${type}`)
    : type;
}

/** The new-action page's type chips: the quick list, and the custom types an admin also manages there. */
export interface TypeChips {
  quick: string[];
  custom: Array<{ _id: string; type: string }>;
}

/**
 * Each type once (issue 27: a custom type was listed twice, in the quick list and among the custom
 * types, and its second chip opened its edit page instead of choosing it). A person who manages
 * custom types finds them in their own row, chosen by a click and edited by the chip's pencil; the
 * quick list keeps the others. For everybody else the quick list stays whole.
 */
export function typeChips(
  quick: readonly string[],
  types: ReadonlyArray<{ _id: string; type: string; system: boolean }>,
  canManage: boolean,
): TypeChips {
  if (!canManage) return { quick: [...quick], custom: [] };
  const custom = types.filter((option) => !option.system).map(({ _id, type }) => ({ _id, type }));
  const customNames = new Set(custom.map((option) => option.type));
  return { quick: quick.filter((name) => !customNames.has(name)), custom };
}
