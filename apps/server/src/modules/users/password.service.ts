import { randomInt } from "node:crypto";
import { checkPassword, PASSWORD_SPECIAL_SYMBOLS, type SecurityPolicy } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { hashPassword, verifyPassword } from "../../platform/auth/passwords";
import { generatePassword } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import type { DB, UserRecord, UserUpdate } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { findEffectivePolicy } from "../policies/policies.service";
import { usersRepo } from "./users.repo";
import { computePasswordExpiry, isAdminRole } from "./users.rules";

/** The columns a new password sets, with its history entry to add. */
export interface PasswordChange {
  columns: UserUpdate & { password_hash: string; password_changed_at: Date };
}

/**
 * Judges a new password for `user` by its effective policy (every PASSWORD_* rule of the contract's
 * checkPassword) and its password history; throws the AppError of the first broken rule.
 */
export async function assertAcceptablePassword(
  ctx: AppContext,
  user: UserRecord,
  password: string,
  options: { current?: string; role?: number } = {},
): Promise<SecurityPolicy> {
  const policy = await findEffectivePolicy(ctx.db, user);
  const broken = checkPassword(password, policy, {
    isAdmin: isAdminRole(options.role ?? user.role),
    current: options.current,
  });
  if (broken) throw new AppError(broken);
  const recent = await usersRepo(ctx.db).listRecentPasswordHashes(
    user.domain_id,
    user.id,
    policy.password_history,
  );
  for (const oldHash of recent) {
    if (await verifyPassword(oldHash, password)) {
      throw new AppError("PASSWORD_INVALID_USED_FEW_TIMES_AGO", "This password was used recently");
    }
  }
  return policy;
}

/**
 * The columns of a password set at `now`. `isFactory`: someone else chose it (an admin, the
 * expiry strategy, registration), so the person must change it at the next sign-in. Any block
 * from attempts or expiry is lifted, since the person now has a working password.
 */
export async function preparePassword(
  policy: SecurityPolicy,
  role: number,
  password: string,
  now: Date,
  isFactory: boolean,
): Promise<PasswordChange> {
  return {
    columns: {
      password_hash: await hashPassword(password),
      password_changed_at: now,
      password_expire_date: computePasswordExpiry(policy, role, now),
      factory_password: isFactory,
      failed_attempts: 0,
      blocked_until: null,
    },
  };
}

/** Writes a password change and its history entry. */
export async function applyPasswordChange(
  ctx: AppContext,
  user: Pick<UserRecord, "id" | "domain_id">,
  change: PasswordChange,
  extra: UserUpdate = {},
  alsoInTransaction?: (trx: Kysely<DB>) => Promise<void>,
): Promise<void> {
  // Through ctx.jobs, so a mail queued by `alsoInTransaction` is woken once the change commits.
  await ctx.jobs.transaction(async (trx) => {
    const users = usersRepo(trx);
    await users.updateUser(user.domain_id, user.id, { ...extra, ...change.columns });
    await users.addPasswordHistory(
      user.domain_id,
      user.id,
      change.columns.password_hash,
      change.columns.password_changed_at,
    );
    await alsoInTransaction?.(trx);
  });
}

/** A random password that meets the policy's text rules for the role (used for e-mailed passwords). */
export function generatePolicyPassword(policy: SecurityPolicy, role: number): string {
  const length = Math.min(
    Math.max(policy.password_min_length, policy.admin_min_length, 16),
    policy.password_max_length,
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    const special = PASSWORD_SPECIAL_SYMBOLS[randomInt(PASSWORD_SPECIAL_SYMBOLS.length)];
    const base = generatePassword(Math.max(length - 4, 4));
    const candidate = `${base.slice(0, 2)}${special}7Aa${base.slice(2)}`.slice(0, Math.max(length, 8));
    if (checkPassword(candidate, policy, { isAdmin: isAdminRole(role) }) === null) return candidate;
  }
  throw new AppError("WRITE_DATA_FAILED", "Could not generate a password for the policy");
}
