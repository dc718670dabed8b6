import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "../policy";
import { EmailSchema, PhoneSchema, TinSchema } from "../validators/contact";
import { RequiredTextSchema } from "../validators/textSchemas";

// Registration of a new company and passwords by e-mail (spec sections 2 and 5).
// Every call here is public and rate-limited; without SMTP configured they answer
// OPERATION_IS_NOT_SUPPORTED rather than pretend a mail went out.

/** POST /api/registry/code: e-mails a registration key to the corporate address. */
export const RegistrationCodeRequestSchema = z.object({ email: EmailSchema });
/** Body of POST /api/registry/code. */
export type RegistrationCodeRequest = z.infer<typeof RegistrationCodeRequestSchema>;

/**
 * POST /api/registry: creates the company's domain and its admin (username = the e-mail, a
 * generated factory password e-mailed to it). REGISTRATION_CODE_FAILED for a wrong or expired key,
 * DOMAIN_ALREADY_EXIST / USER_ALREADY_EXIST when taken, REGISTRATION_FAILED otherwise.
 */
export const RegistrationRequestSchema = z.object({
  company_name: RequiredTextSchema,
  tin: TinSchema,
  full_name: RequiredTextSchema,
  email: EmailSchema,
  phone: PhoneSchema,
  consent: z.literal(true, { message: "consentRequired" }),
  key: z.string().trim().min(1).max(64),
});
/** Body of POST /api/registry. */
export type RegistrationRequest = z.infer<typeof RegistrationRequestSchema>;

/** Answer of POST /api/registry: the admin's username; the password arrives by e-mail. */
export const RegistrationAnswerSchema = z.object({ ok: z.literal(true), username: z.string() });
/** Answer of POST /api/registry. */
export type RegistrationAnswer = z.infer<typeof RegistrationAnswerSchema>;

/**
 * POST /api/password/forgot: e-mails a reset code and link to the account's address. Answers
 * `{ ok: true }` whether or not such an account exists.
 */
export const ForgotPasswordRequestSchema = z.object({ login: z.string().trim().min(1).max(255) });
/** Body of POST /api/password/forgot. */
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;

/**
 * POST /api/password/reset: sets a new password with the e-mailed code (judged by the policy and
 * the password history). BAD_REQUEST for a wrong, used or expired code; a PASSWORD_* code otherwise.
 */
export const ResetPasswordRequestSchema = z.object({
  code: z.string().trim().min(1).max(128),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  confirm: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
/** Body of POST /api/password/reset. */
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

/** Answer of POST /api/password/reset: the username to sign in with. */
export const ResetPasswordAnswerSchema = z.object({ ok: z.literal(true), username: z.string() });

/** A registration key or reset code is valid this long. */
export const EMAIL_CODE_TTL_MINUTES = 30;
