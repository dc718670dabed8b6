/** How a kind's retries are spaced. */
export interface BackoffPolicy {
  /** The first retry comes after between half of this and this, in ms. */
  baseMs: number;
  /** No retry waits longer than this, in ms. */
  maxMs: number;
}

/**
 * The wait before retry number `attempt` (1 = after the first failure): exponential steps
 * `min(max, base·2^(attempt−1))` with "equal jitter", a random wait in [step/2, step]. Jitter
 * spreads the retries of many jobs that failed together (an SMTP server that was down); keeping
 * the lower half means a retry never comes back much sooner than its step, and each wait is at
 * least the one before it (ADR 007).
 */
export function computeRetryDelayMs(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 40);
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.round(step / 2 + random() * (step / 2));
}
