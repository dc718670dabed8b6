import {
  checkPasswordChangeAllowed,
  type Role,
  type SecurityPolicy,
  usesAdminPasswordRules,
} from "@cellfleet/contract";
import type { UserRecord } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";

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

/**
 * Throws PASSWORD_CHANGE_NOT_ALLOWED_5_MINUTES when people change their own password again too soon,
 * by the contract's one rule (spec section 5). A factory password was never chosen by the person, so
 * it is always changeable, however recently it was set.
 */
export function assertOwnPasswordChangeAllowed(
  user: Pick<UserRecord, "factory_password" | "password_changed_at">,
  now: Date,
): void {
  const lastChosenMs = user.factory_password ? null : user.password_changed_at.getTime();
  const refused = checkPasswordChangeAllowed(lastChosenMs, now.getTime());
  if (refused) throw new AppError(refused, "The password was changed less than 5 minutes ago");
}
