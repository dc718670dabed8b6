// Apart from commandTypes.ts (the type labels, which speak the commands texts): the command queries
// use it, and they run in the signed-in shell too (the approval notices), which loads no page texts.

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
