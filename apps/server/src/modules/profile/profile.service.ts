import { checkPassword, type Profile, type ProfileUpdate } from "@cellfleet/contract";
import { hashPassword, verifyPassword } from "../../platform/auth/passwords";
import { assertNotApiToken } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { UserUpdate } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { findEffectivePolicy } from "../policies/policies.service";
import { toProfile } from "../users/users.mapper";
import { usersRepo } from "../users/users.repo";
import { assertOwnPasswordChangeAllowed, computePasswordExpiry, isAdminRole } from "../users/users.rules";

const PASSWORD_MESSAGES: Partial<Record<string, string>> = {
  PASSWORD_INVALID: "The password is empty",
  PASSWORD_INVALID_MIN_LENGTH: "The password is too short",
  PASSWORD_INVALID_MAX_LENGTH: "The password is too long",
  PASSWORD_INVALID_LIKE_CURRENT: "The new password is the same as the current one",
  PASSWORD_INVALID_NO_DIGITS: "The password needs a digit",
  PASSWORD_INVALID_NO_LOWERCASE: "The password needs a lowercase Latin letter",
  PASSWORD_INVALID_NO_CAPITALS: "The password needs an uppercase Latin letter",
  PASSWORD_INVALID_NO_SPECIAL_SYMBOLS: "The password needs one of % * ) ? @ # $ ~",
  PASSWORD_INVALID_REPEATED_SYMBOL: "The password repeats a symbol too many times",
  PASSWORD_INVALID_REPEATED_COMBINATION: "The password repeats a combination too many times",
  PASSWORD_INVALID_SEQUENCE: "The password contains a forbidden sequence",
  PASSWORD_INVALID_PHRASE: "The password contains a forbidden phrase",
};

/** Whether the update asks to change anything (an empty one just reads the profile). */
export function hasProfileChanges(update: ProfileUpdate | undefined): boolean {
  if (!update) return false;
  return (
    update.full_name !== undefined ||
    update.email !== undefined ||
    update.phone !== undefined ||
    update.password !== undefined
  );
}

/** Empty text clears an optional field. */
function blankToNull(value: string | null): string | null {
  return value === null || value.trim() === "" ? null : value.trim();
}

/** The caller's own profile. */
export async function readProfile(ctx: AppContext, session: SessionContext): Promise<Profile> {
  const user = await usersRepo(ctx.db).findUser(session.domainId, session.user.id);
  if (!user) throw new AppError("USER_NOT_FOUND", "The user no longer exists");
  return toProfile(user);
}

/** Checks a password change against the rules of spec section 5 and the user's policy; answers the columns to set. */
async function preparePasswordChange(
  ctx: AppContext,
  session: SessionContext,
  password: NonNullable<ProfileUpdate["password"]>,
): Promise<UserUpdate & { password_hash: string; password_changed_at: Date }> {
  if (password.new !== password.confirm) throw new AppError("PASSWORD_INVALID", "Passwords do not match!");
  const users = usersRepo(ctx.db);
  const user = await users.findUserWithPasswordHash(session.domainId, session.user.id);
  if (!user) throw new AppError("USER_NOT_FOUND", "The user no longer exists");
  // A 400, not a 401: the web signs out on 401, and a typo must not end the session.
  if (!(await verifyPassword(user.password_hash, password.current))) {
    throw new AppError("PASSWORD_INVALID", "The current password is wrong");
  }
  const now = ctx.now();
  assertOwnPasswordChangeAllowed(user, now);
  const policy = await findEffectivePolicy(ctx.db, user);
  const broken = checkPassword(password.new, policy, {
    isAdmin: isAdminRole(user.role),
    current: password.current,
  });
  if (broken)
    throw new AppError(broken, PASSWORD_MESSAGES[broken] ?? "The password does not meet the policy");

  const recent = await users.listRecentPasswordHashes(session.domainId, user.id, policy.password_history);
  for (const oldHash of recent) {
    if (await verifyPassword(oldHash, password.new)) {
      throw new AppError("PASSWORD_INVALID_USED_FEW_TIMES_AGO", "This password was used recently");
    }
  }
  return {
    password_hash: await hashPassword(password.new),
    password_changed_at: now,
    password_expire_date: computePasswordExpiry(policy, user.role, now),
    factory_password: false,
  };
}

/** Changes the caller's own name, contacts and/or password; answers the updated profile. */
export async function updateProfile(
  ctx: AppContext,
  session: SessionContext,
  update: ProfileUpdate,
): Promise<Profile> {
  const changes: UserUpdate = {};
  if (update.full_name !== undefined) changes.full_name = update.full_name;
  if (update.email !== undefined) {
    const email = blankToNull(update.email);
    if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw new AppError("BAD_REQUEST", "email: not an email address");
    }
    changes.email = email;
  }
  if (update.phone !== undefined) changes.phone = blankToNull(update.phone);
  if (update.password) assertNotApiToken(session, "change passwords");
  const passwordChange = update.password ? await preparePasswordChange(ctx, session, update.password) : null;

  await ctx.db.transaction().execute(async (trx) => {
    const users = usersRepo(trx);
    await users.updateUser(session.domainId, session.user.id, { ...changes, ...passwordChange });
    if (passwordChange) {
      await users.addPasswordHistory(
        session.domainId,
        session.user.id,
        passwordChange.password_hash,
        passwordChange.password_changed_at,
      );
    }
  });
  return readProfile(ctx, session);
}
