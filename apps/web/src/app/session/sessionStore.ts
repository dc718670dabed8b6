import type { SessionUser } from "@cellfleet/contract";

/** Where the signed-in user lives between visits (spec section 4: login stores the user). */
export const SESSION_STORAGE_KEY = "cellfleet.session";

type Listener = () => void;

/**
 * The stored user, if it has the fields the shell reads before the server answers: App re-reads the
 * user from the server on every start and stores that answer in its place, so a user stored by an
 * older release is replaced, not trusted (ADR 026: the browser takes the server's answers as the
 * contract's types).
 */
function readStored(): SessionUser | null {
  try {
    const raw = globalThis.localStorage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const data = JSON.parse(raw) as Partial<Record<keyof SessionUser, unknown>> | null;
    if (typeof data !== "object" || data === null) return null;
    const isShaped =
      typeof data.token === "string" &&
      typeof data._id === "string" &&
      typeof data.username === "string" &&
      typeof data.role === "number" &&
      Array.isArray(data.plugins);
    return isShaped ? (data as SessionUser) : null;
  } catch {
    return null;
  }
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
