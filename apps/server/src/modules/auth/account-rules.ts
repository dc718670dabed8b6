import type { SecurityPolicy } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB, UserRecord, UserUpdate } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { OUTBOX_EVENTS, type UserPasswordPayload } from "../../platform/jobs/outbox-events";
import { enqueueMail, MAIL_SECRET_PLACEHOLDER } from "../../platform/mail/mail.jobs";
import { newPasswordMail } from "../account-mail/account-mails";
import { accountingUsersRepo } from "../users/accounting-users.repo";
import { applyPasswordChange, generatePolicyPassword, preparePassword } from "../users/password.service";
import { usersRepo } from "../users/users.repo";
import { isPasswordExpired } from "../users/users.rules";
import { endSession } from "./session.service";

const DAY_MS = 24 * 60 * 60_000;

/** Why an account is blocked (users.block_reason). */
export type BlockReason = "manual" | "attempts" | "inactive" | "expired" | "reset";

/**
 * Blocks a user for good (until an admin unblocks it) and ends its sessions; `alsoInTransaction`
 * (an outbox event) commits with the block.
 */
export async function blockUser(
  ctx: AppContext,
  user: UserRecord,
  reason: BlockReason,
  alsoInTransaction?: (trx: Kysely<DB>) => Promise<void>,
): Promise<void> {
  await ctx.jobs.transaction(async (trx) => {
    await usersRepo(trx).updateUser(user.domain_id, user.id, { blocked: true, block_reason: reason });
    await alsoInTransaction?.(trx);
  });
  await endUserSessions(ctx, user);
}

/** Ends every open session of a user (removed or blocked); its sockets close. */
export async function endUserSessions(
  ctx: AppContext,
  user: Pick<UserRecord, "id" | "domain_id">,
): Promise<void> {
  const ids = await accountingUsersRepo(ctx.db).listOpenSessionIds(user.domain_id, user.id);
  for (const id of ids) await endSession(ctx, id, "user_removed", "USER_BLOCKED");
}

/**
 * The columns a successful sign-in at `at` sets: the failed attempts start over and a temporary
 * block ends (a permanent one, `blocked`, waits for an administrator).
 */
export function signedInColumns(at: Date): UserUpdate {
  return { last_login: at, failed_attempts: 0, blocked_until: null };
}

/**
 * The account checks after a correct password, in order: removed, blocked (an expiry block answers
 * PASSWORD_EXPIRED), no sign-in for `block_without_auth_days`, expired password by the policy's
 * strategy. Throws the answer's AppError; returns when the person may sign in.
 */
export async function assertAccountMaySignIn(
  ctx: AppContext,
  user: UserRecord,
  policy: SecurityPolicy,
): Promise<void> {
  if (user.removed_at !== null) throw new AppError("USER_REMOVED", "The user was removed");
  if (user.blocked) {
    if (user.block_reason === "expired") throw new AppError("PASSWORD_EXPIRED", "The password has expired");
    if (user.block_reason === "reset") throw new AppError("USER_RESET_AND_BLOCKED");
    throw new AppError("USER_BLOCKED", "The user is blocked");
  }
  const now = ctx.now();
  const lastSeen = user.last_login ?? user.create_time;
  if (
    policy.block_without_auth_days > 0 &&
    now.getTime() - lastSeen.getTime() > policy.block_without_auth_days * DAY_MS
  ) {
    await blockUser(ctx, user, "inactive");
    throw new AppError("USER_BLOCKED", `No sign-in for more than ${policy.block_without_auth_days} days`);
  }
  if (!isPasswordExpired(user.password_expire_date, now)) return;
  const expired = (trx: Kysely<DB>) => emitPasswordEvent(ctx, trx, user, OUTBOX_EVENTS.userPasswordExpired);
  if (policy.expiration_strategy === "block") {
    await blockUser(ctx, user, "expired", expired);
    throw new AppError("PASSWORD_EXPIRED", "The password has expired");
  }
  await sendNewPassword(ctx, user, policy, expired);
}

/**
 * Writes a password outbox event (`user.password_expired`, `user.password_reset`) in the
 * transaction of the change it tells of (the block, the new password): notification rules about
 * accounts hear of it exactly when the change committed.
 */
export async function emitPasswordEvent(
  ctx: AppContext,
  trx: Kysely<DB>,
  user: Pick<UserRecord, "id" | "domain_id">,
  event: (typeof OUTBOX_EVENTS)["userPasswordExpired" | "userPasswordReset"],
): Promise<void> {
  const payload: UserPasswordPayload = { user_id: user.id };
  await ctx.jobs.emit(trx, event, { ...payload }, { domainId: user.domain_id });
}

/**
 * Strategy 'send_new_password': a generated password goes to the user's e-mail (PASSWORD_RESET).
 * The mail is a job written in the same transaction as the new password, so neither exists without
 * the other, and a mail server that is down gets the mail later.
 */
async function sendNewPassword(
  ctx: AppContext,
  user: UserRecord,
  policy: SecurityPolicy,
  expired: (trx: Kysely<DB>) => Promise<void>,
): Promise<never> {
  const now = ctx.now();
  const password = generatePolicyPassword(policy, user.role);
  const change = await preparePassword(policy, user.role, password, now, true);
  const events = async (trx: Kysely<DB>) => {
    await expired(trx);
    await emitPasswordEvent(ctx, trx, user, OUTBOX_EVENTS.userPasswordReset);
  };
  const email = user.email;
  if (email && ctx.mailer.isConfigured) {
    await applyPasswordChange(ctx, user, change, {}, async (trx) => {
      await enqueueMail(
        ctx.jobs,
        trx,
        newPasswordMail(email, user.username, MAIL_SECRET_PLACEHOLDER, ctx.config.publicUrl),
        { secret: password, domainId: user.domain_id },
      );
      await events(trx);
    });
    throw new AppError("PASSWORD_RESET", "The password expired; a new one is being sent by e-mail");
  }
  // Nobody knows the new password now, so the account waits for an administrator.
  await applyPasswordChange(ctx, user, change, { blocked: true, block_reason: "reset" }, events);
  await endUserSessions(ctx, user);
  throw new AppError(
    "USER_RESET_AND_BLOCKED",
    "The password was reset but could not be sent; ask an administrator",
  );
}
