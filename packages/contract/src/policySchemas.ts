// Apart from policy.ts so that the password rules and constants come without zod (ADR 018).
import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "./password-limits";
import { SECOND_FACTOR_REMEMBER_MAX_DAYS, SECOND_FACTOR_REQUIRED_FOR } from "./second-factor";

export const PolicyLevelSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type PolicyLevel = z.infer<typeof PolicyLevelSchema>;

/** A security policy (spec section 3). Minutes, days and counts of 0 mean "off". */
export const SecurityPolicySchema = z.object({
  _id: z.string(),
  name: z.string().trim().min(1).max(255),
  policy_level: PolicyLevelSchema,
  password_min_length: z.number().int().min(1).max(PASSWORD_MAX_LENGTH),
  password_max_length: z.number().int().min(1).max(PASSWORD_MAX_LENGTH),
  admin_min_length: z.number().int().min(1).max(PASSWORD_MAX_LENGTH),
  max_repeated_symbols: z.number().int().min(0).max(PASSWORD_MAX_LENGTH),
  repeated_combination_length: z.number().int().min(0).max(PASSWORD_MAX_LENGTH),
  repeated_combination_count: z.number().int().min(0).max(PASSWORD_MAX_LENGTH),
  expiration_days: z.number().int().min(0).max(3650),
  admin_expiration_days: z.number().int().min(0).max(3650),
  expiration_strategy: z.enum(["block", "send_new_password"]),
  attempts_before_temporary_block: z.number().int().min(0).max(1000),
  attempts_before_permanent_block: z.number().int().min(0).max(1000),
  temporary_block_minutes: z.number().int().min(0).max(100000),
  reauthentication: z.boolean(),
  inactivity_minutes: z.number().int().min(0).max(100000),
  block_without_auth_days: z.number().int().min(0).max(3650),
  password_history: z.number().int().min(0).max(100),
  /** Who must enrol a second factor (ADR 039). */
  second_factor_required_for: z.enum(SECOND_FACTOR_REQUIRED_FOR),
  /** Days a browser may skip the second step once its owner asked; 0: never. */
  second_factor_remember_days: z.number().int().min(0).max(SECOND_FACTOR_REMEMBER_MAX_DAYS),
  forbidden_sequences: z.array(z.string()),
  forbidden_phrases: z.array(z.string()),
  is_default: z.boolean(),
});
export type SecurityPolicy = z.infer<typeof SecurityPolicySchema>;
