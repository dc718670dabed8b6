// Sort, filter, page and search choices of a list live in localStorage under a prefix per list
// (spec section 9), so two lists never share a choice and a reload keeps them.

const ROOT = "cellfleet.list";

/** The storage key of one choice (`sort`, `filters`, `page`, `pageSize`, `history`) of a list. */
export function listStorageKey(prefix: string, name: string): string {
  return `${ROOT}.${prefix}.${name}`;
}

/** Reads a stored choice; anything absent, unreadable or rejected by `isValid` gives `fallback`. */
export function readListChoice<T>(
  prefix: string,
  name: string,
  fallback: T,
  isValid: (value: unknown) => value is T,
): T {
  try {
    const raw = globalThis.localStorage?.getItem(listStorageKey(prefix, name));
    if (raw === null || raw === undefined) return fallback;
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

/** Stores a choice; a full or unavailable storage only loses the memory, never the page. */
export function writeListChoice(prefix: string, name: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(listStorageKey(prefix, name), JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the choice simply is not remembered.
  }
}

/** Forgets every choice of one list (its own prefix only). */
export function clearListChoices(prefix: string): void {
  const storage = globalThis.localStorage;
  if (!storage) return;
  const start = `${ROOT}.${prefix}.`;
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key?.startsWith(start)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}
