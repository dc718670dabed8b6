import { z } from "zod";
import { usesAdminPasswordRules } from "./account-roles";
import type { Role } from "./roles";
import { SessionUserSchema } from "./session";

// The second step of signing in (issue 30, ADR 039): a TOTP app (RFC 6238) or a passkey / security
// key (WebAuthn), with ten one-time recovery codes for a lost device.

/** Who a security policy makes enrol a second factor. */
export const SECOND_FACTOR_REQUIRED_FOR = ["nobody", "admins", "everybody"] as const;
/** Who a security policy makes enrol a second factor. */
export type SecondFactorRequiredFor = (typeof SECOND_FACTOR_REQUIRED_FOR)[number];

/** How many recovery codes a person is given at once; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** How long the second step may wait after the password was right. */
export const SECOND_FACTOR_CHALLENGE_MINUTES = 5;
/** The longest a policy may let a browser skip the second step. */
export const SECOND_FACTOR_REMEMBER_MAX_DAYS = 365;

/** Whether the policy's setting makes a person of this role enrol (admins: superusers and admins). */
export function isSecondFactorRequired(requiredFor: SecondFactorRequiredFor, role: Role): boolean {
  if (requiredFor === "everybody") return true;
  return requiredFor === "admins" && usesAdminPasswordRules(role);
}

/** A way of passing the second step. */
export const SecondFactorMethodSchema = z.enum(["totp", "webauthn", "recovery"]);
/** A way of passing the second step. */
export type SecondFactorMethod = z.infer<typeof SecondFactorMethodSchema>;

/** POST /api/login/ after a right password when the person has a factor: the second step to take. */
export const SecondFactorChallengeSchema = z.object({
  second_factor: z.object({
    /** Names this sign-in in the second step; lives SECOND_FACTOR_CHALLENGE_MINUTES. */
    challenge_token: z.string(),
    methods: z.array(SecondFactorMethodSchema),
    /** How many days "remember this browser" lasts under the person's policy; 0: not offered. */
    remember_days: z.number().int().min(0),
  }),
});
/** The second step a sign-in asks for. */
export type SecondFactorChallenge = z.infer<typeof SecondFactorChallengeSchema>;

/** A WebAuthn JSON object (options or a credential) as @simplewebauthn passes it through. */
const WebAuthnJsonSchema = z.record(z.string(), z.unknown());

const StepBase = {
  challenge_token: z.string().min(1).max(128),
  /** Skip the second step in this browser for the policy's days. */
  remember_browser: z.boolean().optional(),
};

/** POST /api/login/second-factor: one of a TOTP code, a recovery code, or a WebAuthn assertion. */
export const SecondFactorSignInSchema = z.union([
  z.object({
    ...StepBase,
    totp: z
      .string()
      .trim()
      .regex(/^\d{6}$/),
  }),
  z.object({ ...StepBase, recovery_code: z.string().trim().min(1).max(32) }),
  z.object({ ...StepBase, credential: WebAuthnJsonSchema }),
]);
/** The second step of a sign-in. */
export type SecondFactorSignIn = z.infer<typeof SecondFactorSignInSchema>;

/** POST /api/login/second-factor/options: the WebAuthn request for this sign-in. */
export const SecondFactorOptionsRequestSchema = z.object({ challenge_token: z.string().min(1).max(128) });

/** A WebAuthn options object for the browser (`PublicKeyCredential*OptionsJSON`). */
export const WebAuthnOptionsSchema = WebAuthnJsonSchema;

/** One of a person's passkeys or security keys. */
export const PasskeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  create_time: z.number(),
  last_used: z.number().nullable(),
});
/** One of a person's passkeys or security keys. */
export type Passkey = z.infer<typeof PasskeySchema>;

/** POST /api/profile/second-factor: what the person has enrolled, and whether the policy asks it. */
export const SecondFactorStatusSchema = z.object({
  totp: z.boolean(),
  passkeys: z.array(PasskeySchema),
  recovery_codes_left: z.number().int(),
  /** The person's policy makes them have a factor. */
  is_required: z.boolean(),
  /** Passkeys work only where the console's address is a domain name (WEBAUTHN_ORIGIN). */
  is_webauthn_available: z.boolean(),
});
/** What the person has enrolled. */
export type SecondFactorStatus = z.infer<typeof SecondFactorStatusSchema>;

/** POST /api/profile/second-factor/totp/start: a new secret to scan; it counts once confirmed. */
export const TotpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as an SVG QR code. */
  qr_svg: z.string(),
});
/** A TOTP secret to scan. */
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

/** POST /api/profile/second-factor/totp/confirm: a code from the app proves the scan. */
export const TotpConfirmSchema = z.object({
  totp: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

/** POST /api/profile/second-factor/passkey: the browser's new credential and a name for it. */
export const PasskeyRegisterSchema = z.object({
  name: z.string().trim().min(1).max(64),
  credential: WebAuthnJsonSchema,
});

/** The answer of an enrolment: the status, and the recovery codes when they were made (shown once). */
export const SecondFactorEnrolledSchema = z.object({
  status: SecondFactorStatusSchema,
  recovery_codes: z.array(z.string()).nullable(),
});
/** The answer of an enrolment. */
export type SecondFactorEnrolled = z.infer<typeof SecondFactorEnrolledSchema>;

/** The path parameter of a passkey. */
export const PasskeyIdParamsSchema = z.object({ passkeyId: z.string().min(1).max(64) });

/** POST /api/login/: the session user, or the second step to take first. */
export const LoginAnswerSchema = z.union([SessionUserSchema, SecondFactorChallengeSchema]);
/** What POST /api/login/ answers. */
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

/** Whether a sign-in answer asks for the second step. */
export function isSecondFactorChallenge(answer: LoginAnswer): answer is SecondFactorChallenge {
  return "second_factor" in answer;
}
