import type { PolicyLevel, SecondFactorRequiredFor, SecurityPolicy } from "@cellfleet/contract";
import type { SecurityPolicyRow } from "../../platform/db/schema";

/** A security_policies row as the contract's SecurityPolicy. */
export function toSecurityPolicy(row: SecurityPolicyRow): SecurityPolicy {
  return {
    _id: row.id,
    name: row.name,
    policy_level: row.policy_level as PolicyLevel,
    password_min_length: row.password_min_length,
    password_max_length: row.password_max_length,
    admin_min_length: row.admin_min_length,
    max_repeated_symbols: row.max_repeated_symbols,
    repeated_combination_length: row.repeated_combination_length,
    repeated_combination_count: row.repeated_combination_count,
    expiration_days: row.expiration_days,
    admin_expiration_days: row.admin_expiration_days,
    expiration_strategy: row.expiration_strategy,
    attempts_before_temporary_block: row.attempts_before_temporary_block,
    attempts_before_permanent_block: row.attempts_before_permanent_block,
    temporary_block_minutes: row.temporary_block_minutes,
    reauthentication: row.reauthentication,
    inactivity_minutes: row.inactivity_minutes,
    block_without_auth_days: row.block_without_auth_days,
    password_history: row.password_history,
    second_factor_required_for: row.second_factor_required_for as SecondFactorRequiredFor,
    second_factor_remember_days: row.second_factor_remember_days,
    forbidden_sequences: row.forbidden_sequences,
    forbidden_phrases: row.forbidden_phrases,
    is_default: row.is_default,
  };
}
