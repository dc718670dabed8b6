import { z } from "zod";
import { RecordIdSchema } from "../files";
import { DEFAULT_POLICY } from "../policy";
import { PolicyLevelSchema, SecurityPolicySchema } from "../policySchemas";

// Security policies (spec sections 3 and 6). Lists answer empty without the caller's accounting plugin.

/** POST /api/policies/: `search` over the name; the default policy is never listed. */
export const PolicyListRequestSchema = z.object({ search: z.string().trim().max(255).optional() });
/** Body of POST /api/policies/. */
export type PolicyListRequest = z.infer<typeof PolicyListRequestSchema>;

/** A row of the policy list: name and protection level. `domain_id` null for a global policy. */
export const PolicyListItemSchema = z.object({
  _id: z.string(),
  name: z.string(),
  policy_level: PolicyLevelSchema,
  domain_id: z.string().nullable(),
});
/** A row of the policy list. */
export type PolicyListItem = z.infer<typeof PolicyListItemSchema>;

/** Answer of POST /api/policies/. */
export const PolicyListAnswerSchema = z.object({ items: z.array(PolicyListItemSchema) });

/** A policy as its page shows it. */
export const PolicyDetailSchema = SecurityPolicySchema.extend({ domain_id: z.string().nullable() });
/** A policy as its page shows it. */
export type PolicyDetail = z.infer<typeof PolicyDetailSchema>;

const PolicyFieldsSchema = SecurityPolicySchema.omit({ _id: true, is_default: true });

/** Min length may not exceed max length, nor admin min length. */
function lengthsAgree(policy: {
  password_min_length?: number;
  password_max_length?: number;
  admin_min_length?: number;
}) {
  const max = policy.password_max_length;
  if (max === undefined) return true;
  return (policy.password_min_length ?? 0) <= max && (policy.admin_min_length ?? 0) <= max;
}

/**
 * Body of POST /api/policy/new (superuser only): every field of a policy. A superuser's policy is
 * global unless `domain_id` names a domain.
 */
export const CreatePolicySchema = PolicyFieldsSchema.extend({
  domain_id: RecordIdSchema.nullable().default(null),
  // Older clients leave them out: the default policy's choice (ADR 039).
  second_factor_required_for: PolicyFieldsSchema.shape.second_factor_required_for.default(
    DEFAULT_POLICY.second_factor_required_for,
  ),
  second_factor_remember_days: PolicyFieldsSchema.shape.second_factor_remember_days.default(
    DEFAULT_POLICY.second_factor_remember_days,
  ),
}).refine(lengthsAgree, {
  message: "password_min_length: the minimum lengths may not exceed the maximum",
  path: ["password_min_length"],
});
/** Body of POST /api/policy/new. */
export type CreatePolicy = z.infer<typeof CreatePolicySchema>;

/**
 * Body of POST /api/policy/{policy_id}: no field reads; fields change it. Superusers change any
 * policy; admins only their domain's own ones.
 */
export const UpdatePolicySchema = PolicyFieldsSchema.partial().refine(lengthsAgree, {
  message: "password_min_length: the minimum lengths may not exceed the maximum",
  path: ["password_min_length"],
});
/** Body of POST /api/policy/{policy_id}. */
export type UpdatePolicy = z.infer<typeof UpdatePolicySchema>;

/** Which list a dictionary upload replaces. */
export const DICTIONARY_KINDS = ["sequences", "phrases"] as const;
/** Which list a dictionary upload replaces. */
export type DictionaryKind = (typeof DICTIONARY_KINDS)[number];

/**
 * POST /api/policy/{policy_id}/dictionary/{kind}: multipart with the field `file` (.txt or .csv, one
 * entry per line, UTF-8). Replaces forbidden_sequences or forbidden_phrases with the parsed entries
 * and answers the policy. DICTIONARY_FILE_NOT_GIVEN without a file, DICTIONARY_FILE_NOT_TEXT for
 * another extension or no entries, UNSUPPORTED_ENCODING when the bytes are not UTF-8.
 */
export const DictionaryKindSchema = z.enum(DICTIONARY_KINDS);

/**
 * With `reauthentication` on, a session may save changes only within this many minutes of signing
 * in; after that the server answers REAUTH (401) and the person signs in again.
 */
export const REAUTH_WINDOW_MINUTES = 15;

/**
 * POST /api/accounting/domain: the policies a domain may use (its own and the global ones, the
 * default included), for the policy selects of the domain and user forms. Admins get their own
 * domain's; a superuser names one with `domain_id`, or gets the global ones. Answers
 * PolicyListAnswerSchema; empty without the accounting plugin.
 */
export const DomainPoliciesRequestSchema = z.object({ domain_id: z.string().min(1).max(64).optional() });
/** Body of POST /api/accounting/domain. */
export type DomainPoliciesRequest = z.infer<typeof DomainPoliciesRequestSchema>;
