import { DEFAULT_POLICY, type SecurityPolicy } from "@cellfleet/contract";

/** The numeric fields of a policy, each with the bounds of the contract's SecurityPolicySchema. */
export const POLICY_NUMBER_FIELDS = [
  { name: "password_min_length", min: 1, max: 255 },
  { name: "password_max_length", min: 1, max: 255 },
  { name: "admin_min_length", min: 1, max: 255 },
  { name: "max_repeated_symbols", min: 0, max: 255 },
  { name: "repeated_combination_length", min: 0, max: 255 },
  { name: "repeated_combination_count", min: 0, max: 255 },
  { name: "password_history", min: 0, max: 100 },
  { name: "expiration_days", min: 0, max: 3650 },
  { name: "admin_expiration_days", min: 0, max: 3650 },
  { name: "attempts_before_temporary_block", min: 0, max: 1000 },
  { name: "attempts_before_permanent_block", min: 0, max: 1000 },
  { name: "temporary_block_minutes", min: 0, max: 100000 },
  { name: "inactivity_minutes", min: 0, max: 100000 },
  { name: "block_without_auth_days", min: 0, max: 3650 },
  { name: "second_factor_remember_days", min: 0, max: 365 },
] as const;

/** A numeric field's name. */
export type PolicyNumberField = (typeof POLICY_NUMBER_FIELDS)[number]["name"];

/** The policy form's values: numbers as typed text, so a half-typed value is not lost. */
export type PolicyFormValues = Record<PolicyNumberField, string> & {
  name: string;
  policy_level: 0 | 1 | 2;
  expiration_strategy: SecurityPolicy["expiration_strategy"];
  reauthentication: boolean;
  second_factor_required_for: SecurityPolicy["second_factor_required_for"];
  forbidden_sequences: string[];
  forbidden_phrases: string[];
};

/** A policy as the body that saves it (every field but `_id` and `is_default`). */
export type PolicyBody = Omit<SecurityPolicy, "_id" | "is_default">;

/** Form values of a stored policy, or of the default one for a new policy. */
export function toPolicyForm(policy: PolicyBody | null): PolicyFormValues {
  const source = policy ?? { ...DEFAULT_POLICY, name: "" };
  const numbers = Object.fromEntries(
    POLICY_NUMBER_FIELDS.map((field) => [field.name, String(source[field.name])]),
  ) as Record<PolicyNumberField, string>;
  return {
    ...numbers,
    name: source.name,
    policy_level: source.policy_level,
    expiration_strategy: source.expiration_strategy,
    reauthentication: source.reauthentication,
    second_factor_required_for: source.second_factor_required_for,
    forbidden_sequences: [...source.forbidden_sequences],
    forbidden_phrases: [...source.forbidden_phrases],
  };
}

/** The body of valid form values (the form's rules have already checked every number). */
export function fromPolicyForm(values: PolicyFormValues): PolicyBody {
  const numbers = Object.fromEntries(
    POLICY_NUMBER_FIELDS.map((field) => [field.name, Number(values[field.name].trim())]),
  ) as Record<PolicyNumberField, number>;
  return {
    ...numbers,
    name: values.name.trim(),
    policy_level: values.policy_level,
    expiration_strategy: values.expiration_strategy,
    reauthentication: values.reauthentication,
    second_factor_required_for: values.second_factor_required_for,
    forbidden_sequences: values.forbidden_sequences,
    forbidden_phrases: values.forbidden_phrases,
  };
}

/** Whether a typed value is a whole number within `min..max`. */
export function isWholeInRange(value: string, min: number, max: number): boolean {
  const text = value.trim();
  if (!/^\d+$/.test(text)) return false;
  const number = Number(text);
  return number >= min && number <= max;
}
