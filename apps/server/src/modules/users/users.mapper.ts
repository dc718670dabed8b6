import {
  type AccountingUser,
  PLUGINS,
  type Plugin,
  type Profile,
  type Role,
  type SessionUser,
} from "@cellfleet/contract";
import type { UserRecord } from "../../platform/db/schema";

function toMillis(date: Date | null): number | null {
  return date === null ? null : date.getTime();
}

function toPlugins(value: unknown): Plugin[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is Plugin => (PLUGINS as readonly unknown[]).includes(entry));
}

/** A user as the session user of POST /api/login/ and /api/accounting/self. */
export function toSessionUser(user: UserRecord, token: string, isSecondFactorPending: boolean): SessionUser {
  return {
    token,
    _id: user.id,
    username: user.username,
    role: user.role as Role,
    is_junior: user.is_junior,
    name: user.full_name.trim() || user.username,
    domain_name: user.domain_name,
    plugins: toPlugins(user.plugins),
    factory_password: user.factory_password,
    second_factor_pending: isSecondFactorPending,
    password_expire_date: toMillis(user.password_expire_date),
    email: user.email,
    is_demo: user.is_demo,
  };
}

/** A user as their own profile (POST /api/profile). */
export function toProfile(user: UserRecord): Profile {
  return {
    _id: user.id,
    username: user.username,
    full_name: user.full_name,
    email: user.email,
    phone: user.phone,
    role: user.role as Role,
    domain_name: user.domain_name,
    factory_password: user.factory_password,
    password_expire_date: toMillis(user.password_expire_date),
    last_login: toMillis(user.last_login),
  };
}

/** A user as the accounting screens show it (users list, user page, admins, superusers). */
export function toAccountingUser(
  user: UserRecord & { policy_name: string | null },
  now: Date,
): AccountingUser {
  const isTemporarilyBlocked = user.blocked_until !== null && user.blocked_until.getTime() > now.getTime();
  return {
    _id: user.id,
    username: user.username,
    full_name: user.full_name,
    role: user.role as Role,
    is_junior: user.is_junior,
    email: user.email,
    phone: user.phone,
    policy: user.policy_id !== null ? { _id: user.policy_id, name: user.policy_name ?? "" } : null,
    last_login: toMillis(user.last_login),
    // Blocked for browsers that never signed in (ADR 016) reads as blocked: an admin's unblock lifts it.
    blocked: user.blocked || user.untrusted_blocked || isTemporarilyBlocked,
    factory_password: user.factory_password,
    domain_name: user.domain_name,
    domain_id: user.domain_id,
    plugins: toPlugins(user.plugins),
    blocked_until: isTemporarilyBlocked ? toMillis(user.blocked_until) : null,
    password_expire_date: toMillis(user.password_expire_date),
    tag_scope: user.tag_scope,
  };
}
