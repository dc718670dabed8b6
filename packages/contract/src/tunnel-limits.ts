// The ranges of remote access's limits (ADR 038), apart from tunnels.ts and free of zod: the error
// texts every page loads (locales/en.ts, ru.ts) name them, and importing tunnels.ts would bring its
// schemas, and zod with them, into the signed-in start (ADR 026).

/** The range of each remote-access limit: what the settings' schema and the settings form accept. */
export const REMOTE_ACCESS_LIMIT_RANGES = {
  idle_minutes: { min: 1, max: 240 },
  max_minutes: { min: 1, max: 1440 },
  bandwidth_kib: { min: 8, max: 1_048_576 },
  quota_mib: { min: 1, max: 102_400 },
  recording_days: { min: 1, max: 3650 },
} as const;
/** The name of one remote-access limit. */
export type RemoteAccessLimit = keyof typeof REMOTE_ACCESS_LIMIT_RANGES;
