import type { SessionUser } from "@cellfleet/contract";
import { loadSessionUserSchema } from "./sessionSchema";

/** Where the signed-in user lives between visits (spec section 4: login stores the user). */
export const SESSION_STORAGE_KEY = "cellfleet.session";

type Listener = () => void;

/**
 * The stored user at once, checked only for its token; the full check against the contract's schema
 * follows when zod has loaded (kept out of the start-up bundle, ADR 018) and forgets a stored user
 * that does not match. A stored token is re-read from the server on start anyway (App).
 */
function readStored(): SessionUser | null {
  try {
    const raw = globalThis.localStorage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const data: unknown = JSON.parse(raw);
    if (typeof data !== "object" || data === null) return null;
    if (typeof (data as { token?: unknown }).token !== "string") return null;
    const stored = data as SessionUser;
    void checkStored(stored);
    return stored;
  } catch {
    return null;
  }
}

async function checkStored(stored: SessionUser): Promise<void> {
  const schema = await loadSessionUserSchema().catch(() => null);
  if (!schema || current !== stored) return;
  const parsed = schema.safeParse(stored);
  if (parsed.success) current = parsed.data;
  else sessionStore.clear();
}

let current: SessionUser | null = readStored();
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** The session as a tiny external store, read by React through useSyncExternalStore. */
export const sessionStore = {
  get(): SessionUser | null {
    return current;
  },
  token(): string | null {
    return current?.token ?? null;
  },
  set(user: SessionUser): void {
    current = user;
    globalThis.localStorage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(user));
    emit();
  },
  /** Forgets the user and the token (logout, a failed login, a rejected token). */
  clear(): void {
    const had = current !== null;
    current = null;
    globalThis.localStorage?.removeItem(SESSION_STORAGE_KEY);
    if (had) emit();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Re-reads localStorage, for tests and for another tab's change. */
  reload(): void {
    current = readStored();
    emit();
  },
};
