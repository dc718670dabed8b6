import { COMMAND_TYPES, SETTINGS_COMMAND_TYPE } from "@cellfleet/contract";

/** A built-in type's label, or a custom type's own name. */
export function typeLabel(t: (key: string) => string, type: string): string {
  return (COMMAND_TYPES as readonly string[]).includes(type) || type === SETTINGS_COMMAND_TYPE
    ? t(`commands.types.${type}`)
    : type;
}

/** What deleting several custom types came to: the ids deleted and the errors of the rest. */
export interface DeleteEachResult {
  deleted: string[];
  failed: { id: string; error: unknown }[];
}

/**
 * Deletes the ids one call each (the API has no bulk delete for types), in order, going on past a
 * refusal (a built-in type answers SYSTEM_COMMAND_TYPE) so one bad id does not keep the rest.
 */
export async function deleteEach(
  ids: readonly string[],
  remove: (id: string) => Promise<void>,
): Promise<DeleteEachResult> {
  const result: DeleteEachResult = { deleted: [], failed: [] };
  for (const id of ids) {
    try {
      await remove(id);
      result.deleted.push(id);
    } catch (error) {
      result.failed.push({ id, error });
    }
  }
  return result;
}
