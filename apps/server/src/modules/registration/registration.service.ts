import { randomInt } from "node:crypto";
import {
  DEFAULT_DOMAIN_SETTINGS,
  EMAIL_CODE_TTL_MINUTES,
  type ForgotPasswordRequest,
  PLUGINS,
  type RegistrationAnswer,
  type RegistrationRequest,
  type ResetPasswordRequest,
} from "@cellfleet/contract";
import { hashPassword } from "../../platform/auth/passwords";
import { generateToken, hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import { domainsRepo } from "../../platform/db/domains.repo";
import { toJsonb } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { enqueueMail, MAIL_SECRET_PLACEHOLDER } from "../../platform/mail/mail.jobs";
import { accountCreatedMail, passwordResetMail, registrationKeyMail } from "../account-mail/account-mails";
import { emitPasswordEvent } from "../auth/account-rules";
import { findEffectivePolicy } from "../policies/policies.service";
import { accountingUsersRepo } from "../users/accounting-users.repo";
import {
  applyPasswordChange,
  assertAcceptablePassword,
  generatePolicyPassword,
  preparePassword,
} from "../users/password.service";
import { usersRepo } from "../users/users.repo";
import { computePasswordExpiry } from "../users/users.rules";
import { emailCodesRepo } from "./email-codes.repo";

const CODE_TTL_MS = EMAIL_CODE_TTL_MINUTES * 60_000;

function requireMail(ctx: AppContext): void {
  if (!ctx.mailer.isConfigured) {
    throw new AppError(
      "OPERATION_IS_NOT_SUPPORTED",
      "E-mail is not configured on this server, so this is not available",
    );
  }
}

/** An 8-digit key, easy to type from a mail. */
function generateKey(): string {
  return String(randomInt(10_000_000, 100_000_000));
}

/** POST /api/registry/code: stores a registration key and queues its mail (a mail.send job). */
export async function sendRegistrationCode(ctx: AppContext, email: string): Promise<void> {
  requireMail(ctx);
  const key = generateKey();
  const now = ctx.now();
  // The code and its mail commit together; a mail server that is down gets the mail on a retry.
  await ctx.jobs.transaction(async (trx) => {
    await emailCodesRepo(trx).insertCodeAcrossDomains({
      purpose: "registration",
      email,
      userId: null,
      codeHash: hashToken(key),
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      at: now,
    });
    await enqueueMail(ctx.jobs, trx, registrationKeyMail(email, MAIL_SECRET_PLACEHOLDER), { secret: key });
  });
}

/**
 * POST /api/registry: with a valid key, creates the domain and its admin (username = the e-mail)
 * in one transaction, with the mail of the admin's factory password queued in it.
 */
export async function register(ctx: AppContext, request: RegistrationRequest): Promise<RegistrationAnswer> {
  requireMail(ctx);
  const now = ctx.now();
  const email = request.email.toLowerCase();
  const domains = domainsRepo(ctx.db);
  const users = accountingUsersRepo(ctx.db);
  if (await domains.findDomainByNameAcrossDomains(request.company_name)) {
    throw new AppError("DOMAIN_ALREADY_EXIST", "A company with this name is registered");
  }
  if ((await users.isUsernameTakenAcrossDomains(email)) || (await users.isEmailTakenAcrossDomains(email))) {
    throw new AppError("USER_ALREADY_EXIST", "A user with this e-mail exists");
  }
  const consumed = await emailCodesRepo(ctx.db).consumeCodeAcrossDomains(
    "registration",
    hashToken(request.key.trim()),
    now,
    email,
  );
  if (!consumed) throw new AppError("REGISTRATION_CODE_FAILED", "The key is wrong or has expired");

  const policy = await findEffectivePolicy(ctx.db, {
    domain_id: null,
    policy_id: null,
    domain_policy_id: null,
  });
  const password = generatePolicyPassword(policy, 2);
  const passwordHash = await hashPassword(password);
  try {
    await ctx.jobs.transaction(async (trx) => {
      const domainId = await domainsRepo(trx).insertDomain({
        name: request.company_name,
        full_name: request.company_name,
        tin: request.tin,
        email,
        phone: request.phone,
        manager: request.full_name,
        // The zone has its own column (0027), 'UTC' by its default.
        settings: toJsonb({ ...DEFAULT_DOMAIN_SETTINGS, time_zone: undefined }),
        create_time: now,
      });
      const userId = await usersRepo(trx).insertUser(domainId, {
        username: email,
        full_name: request.full_name,
        role: 2,
        email,
        phone: request.phone,
        plugins: toJsonb(PLUGINS),
        password_hash: passwordHash,
        factory_password: true,
        password_changed_at: now,
        password_expire_date: computePasswordExpiry(policy, 2, now),
        create_time: now,
      });
      await usersRepo(trx).addPasswordHistory(domainId, userId, passwordHash, now);
      const mail = accountCreatedMail(email, email, MAIL_SECRET_PLACEHOLDER, ctx.config.publicUrl);
      await enqueueMail(ctx.jobs, trx, mail, { secret: password, domainId });
    });
  } catch (error) {
    ctx.log.error({ err: error }, "registration failed");
    throw new AppError("REGISTRATION_FAILED", "The company could not be registered");
  }
  return { ok: true, username: email };
}

/**
 * POST /api/password/forgot: e-mails a reset code when a live user with an e-mail matches; answers
 * the same whether or not one does. The mail is a job queued with the code, retried if it fails.
 */
export async function forgotPassword(ctx: AppContext, request: ForgotPasswordRequest): Promise<void> {
  requireMail(ctx);
  const user = await accountingUsersRepo(ctx.db).findUserByLoginAcrossDomains(request.login);
  if (!user?.email) return;
  const code = generateToken();
  const now = ctx.now();
  const email = user.email;
  await ctx.jobs.transaction(async (trx) => {
    await emailCodesRepo(trx).insertCodeAcrossDomains({
      purpose: "password_reset",
      email,
      userId: user.id,
      codeHash: hashToken(code),
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      at: now,
    });
    const mail = passwordResetMail(email, user.username, MAIL_SECRET_PLACEHOLDER, ctx.config.publicUrl);
    await enqueueMail(ctx.jobs, trx, mail, { secret: code, domainId: user.domain_id });
  });
}

/**
 * POST /api/password/reset: a valid code sets the new password (judged by the policy and the
 * history); expiry and temporary blocks end with it, a manual or attempts block does not.
 */
export async function resetPassword(
  ctx: AppContext,
  request: ResetPasswordRequest,
): Promise<{ username: string }> {
  if (request.password !== request.confirm) throw new AppError("PASSWORD_INVALID", "Passwords do not match!");
  const now = ctx.now();
  const codes = emailCodesRepo(ctx.db);
  const codeHash = hashToken(request.code.trim());
  const wrongCode = () => new AppError("BAD_REQUEST", "The reset code is wrong, used or expired");
  const live = await codes.findLiveCodeAcrossDomains("password_reset", codeHash, now);
  const user = live?.user_id ? await usersRepo(ctx.db).findUserByIdAcrossDomains(live.user_id) : undefined;
  if (!user || user.removed_at !== null) throw wrongCode();
  // The code is used up only once the password passes, so a rejected password can be retried.
  const policy = await assertAcceptablePassword(ctx, user, request.password);
  if (!(await codes.consumeCodeAcrossDomains("password_reset", codeHash, now))) throw wrongCode();
  const change = await preparePassword(policy, user.role, request.password, now, false);
  const lifts = user.block_reason === "expired" || user.block_reason === "reset";
  await applyPasswordChange(ctx, user, change, lifts ? { blocked: false, block_reason: null } : {}, (trx) =>
    emitPasswordEvent(ctx, trx, user, OUTBOX_EVENTS.userPasswordReset),
  );
  return { username: user.username };
}
