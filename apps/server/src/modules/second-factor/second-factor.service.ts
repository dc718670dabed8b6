import {
  isSecondFactorRequired,
  type Role,
  type SecondFactorEnrolled,
  type SecondFactorStatus,
  type TotpEnrolment,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import { hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { findEffectivePolicy } from "../policies/policies.service";
import { hashRecoveryCode, matchTotp, newRecoveryCodes, newTotpSecret } from "./factors";
import { secondFactorRepo } from "./second-factor.repo";
import { registrationOptions, verifyRegistration } from "./webauthn";

// A person's own second factors on the profile page (ADR 039). Enrolling the first factor makes
// ten recovery codes, answered once; removing the last one drops them.

const REGISTER_MINUTES = 5;

/** The key of a person's open passkey enrolment (one at a time). */
const registerKey = (userId: string) => hashToken(`register:${userId}`);

function wrongCode(): AppError {
  return new AppError("SECOND_FACTOR_INVALID", "Wrong code or key");
}

/** What the person has enrolled, and whether their policy asks for it. */
export async function readSecondFactorStatus(
  ctx: AppContext,
  session: SessionContext,
): Promise<SecondFactorStatus> {
  const repo = secondFactorRepo(ctx.db);
  const { domainId, user } = session;
  const [totp, passkeys, left, policy] = await Promise.all([
    repo.findTotp(domainId, user.id),
    repo.listPasskeys(domainId, user.id),
    repo.countRecoveryCodesLeft(domainId, user.id),
    findEffectivePolicy(ctx.db, user),
  ]);
  return {
    totp: totp?.confirmed_at != null,
    passkeys: passkeys.map((row) => ({
      _id: row.id,
      name: row.name,
      create_time: row.create_time.getTime(),
      last_used: row.last_used_at?.getTime() ?? null,
    })),
    recovery_codes_left: left,
    is_required: isSecondFactorRequired(policy.second_factor_required_for, user.role as Role),
    is_webauthn_available: ctx.config.webauthn !== null,
  };
}

/**
 * After a factor was added or removed: users.has_second_factor follows, the first factor brings
 * new recovery codes (answered, to be shown once), the last one's removal drops them.
 */
async function afterFactorsChanged(
  ctx: AppContext,
  session: SessionContext,
  hadFactor: boolean,
): Promise<SecondFactorEnrolled> {
  const repo = secondFactorRepo(ctx.db);
  const hasFactor = await repo.refreshHasSecondFactor(session.domainId, session.user.id);
  let codes: string[] | null = null;
  if (hasFactor && !hadFactor) {
    codes = newRecoveryCodes();
    await repo.replaceRecoveryCodes(session.domainId, session.user.id, codes.map(hashRecoveryCode));
  } else if (!hasFactor && hadFactor) {
    await repo.replaceRecoveryCodes(session.domainId, session.user.id, []);
  }
  return { status: await readSecondFactorStatus(ctx, session), recovery_codes: codes };
}

/** A new TOTP secret for the person to scan; refused while a confirmed one is enrolled. */
export async function startTotpEnrolment(ctx: AppContext, session: SessionContext): Promise<TotpEnrolment> {
  const repo = secondFactorRepo(ctx.db);
  const current = await repo.findTotp(session.domainId, session.user.id);
  if (current?.confirmed_at) {
    throw new AppError("OPERATION_IS_NOT_SUPPORTED", "An authenticator app is enrolled: remove it first");
  }
  const { secret, otpauthUrl, qrSvg } = await newTotpSecret("Cellfleet", session.user.username);
  await repo.saveUnconfirmedTotp(
    session.domainId,
    session.user.id,
    ctx.secrets.seal("totp-secret", secret),
    ctx.now(),
  );
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/** Confirms the scanned secret with a code from the app. */
export async function confirmTotpEnrolment(
  ctx: AppContext,
  session: SessionContext,
  code: string,
): Promise<SecondFactorEnrolled> {
  const repo = secondFactorRepo(ctx.db);
  const totp = await repo.findTotp(session.domainId, session.user.id);
  if (!totp || totp.confirmed_at) {
    throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Start the authenticator app's enrolment first");
  }
  const now = ctx.now();
  const secret = ctx.secrets.open("totp-secret", totp.secret_sealed);
  const step = await matchTotp(secret, code, now, totp.last_time_step);
  if (step === null || !(await repo.takeTotpStep(session.domainId, session.user.id, step, now)))
    throw wrongCode();
  return afterFactorsChanged(ctx, session, session.user.has_second_factor);
}

/** Removes the person's TOTP app. */
export async function removeTotp(ctx: AppContext, session: SessionContext): Promise<SecondFactorStatus> {
  await secondFactorRepo(ctx.db).deleteTotp(session.domainId, session.user.id);
  return (await afterFactorsChanged(ctx, session, session.user.has_second_factor)).status;
}

/** The browser's options for a new passkey; the challenge waits REGISTER_MINUTES. */
export async function startPasskeyEnrolment(
  ctx: AppContext,
  session: SessionContext,
): Promise<Record<string, unknown>> {
  const repo = secondFactorRepo(ctx.db);
  const existing = await repo.listPasskeys(session.domainId, session.user.id);
  const options = await registrationOptions(ctx, session.user, existing);
  const now = ctx.now();
  await repo.insertChallengeAcrossDomains(
    {
      key_hash: registerKey(session.user.id),
      user_id: session.user.id,
      purpose: "register",
      webauthn_challenge: options.challenge,
      device_token_hash: null,
      expires_at: new Date(now.getTime() + REGISTER_MINUTES * 60_000),
    },
    now,
  );
  return { ...options };
}

/** Stores the browser's new passkey under a name, once its answer to the challenge checks out. */
export async function addPasskey(
  ctx: AppContext,
  session: SessionContext,
  name: string,
  credential: Record<string, unknown>,
): Promise<SecondFactorEnrolled> {
  const repo = secondFactorRepo(ctx.db);
  const key = registerKey(session.user.id);
  const challenge = await repo.findChallengeAcrossDomains(key);
  const now = ctx.now();
  if (!challenge?.webauthn_challenge || challenge.expires_at.getTime() <= now.getTime()) {
    throw new AppError("SECOND_FACTOR_INVALID", "The passkey's enrolment expired: add it again");
  }
  // One answer per challenge, right or wrong.
  await repo.deleteChallengeAcrossDomains(key);
  const passkey = await verifyRegistration(ctx, credential, challenge.webauthn_challenge);
  if (!passkey) throw wrongCode();
  await repo.insertPasskey(session.domainId, session.user.id, { ...passkey, name }, now);
  return afterFactorsChanged(ctx, session, session.user.has_second_factor);
}

/** Removes one of the person's passkeys. */
export async function removePasskey(
  ctx: AppContext,
  session: SessionContext,
  passkeyId: string,
): Promise<SecondFactorStatus> {
  const isRemoved = await secondFactorRepo(ctx.db).deletePasskey(
    session.domainId,
    session.user.id,
    passkeyId,
  );
  if (!isRemoved) throw new AppError("NOT_ENOUGH_PARAMS", "No such passkey");
  return (await afterFactorsChanged(ctx, session, session.user.has_second_factor)).status;
}

/** Ten new recovery codes in place of the old ones (which stop working); needs a factor. */
export async function renewRecoveryCodes(
  ctx: AppContext,
  session: SessionContext,
): Promise<SecondFactorEnrolled> {
  if (!session.user.has_second_factor) {
    throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Enrol an authenticator app or a passkey first");
  }
  const codes = newRecoveryCodes();
  await secondFactorRepo(ctx.db).replaceRecoveryCodes(
    session.domainId,
    session.user.id,
    codes.map(hashRecoveryCode),
  );
  return { status: await readSecondFactorStatus(ctx, session), recovery_codes: codes };
}
