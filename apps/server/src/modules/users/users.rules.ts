import { type Role, type SecurityPolicy, usesAdminPasswordRules } from "@cellfleet/contract";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether a password with this expiry date has expired at `now`. */
export function isPasswordExpired(expireDate: Date | null, now: Date): boolean {
  return expireDate !== null && expireDate.getTime() <= now.getTime();
}

/** Admins and superusers follow the policy's admin rules (the contract's permissions say who they are). */
export function isAdminRole(role: number): boolean {
  return usesAdminPasswordRules(role as Role);
}

/** When a password set at `changedAt` expires under the policy; null when it never does. */
export function computePasswordExpiry(policy: SecurityPolicy, role: number, changedAt: Date): Date | null {
  const days = isAdminRole(role) ? policy.admin_expiration_days : policy.expiration_days;
  return days > 0 ? new Date(changedAt.getTime() + days * DAY_MS) : null;
}
