import { PLUGINS, type Plugin, type Profile, type Role, type SessionUser } from "@cellfleet/contract";
import type { UserRecord } from "../../platform/db/schema";

function toMillis(date: Date | null): number | null {
  return date === null ? null : date.getTime();
}

function toPlugins(value: unknown): Plugin[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is Plugin => (PLUGINS as readonly unknown[]).includes(entry));
}

/** A user as the session user of POST /api/login/ and /api/accounting/self. */
export function toSessionUser(user: UserRecord, token: string): SessionUser {
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
