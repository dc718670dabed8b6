import { DEFAULT_POLICY, type SecurityPolicy } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { DB, UserRecord } from "../../platform/db/schema";
import { toSecurityPolicy } from "./policies.mapper";
import { policiesRepo } from "./policies.repo";

/** The policy that governs a user: their own, else their domain's, else the default one. */
export async function findEffectivePolicy(
  db: Kysely<DB>,
  user: Pick<UserRecord, "domain_id" | "policy_id" | "domain_policy_id">,
): Promise<SecurityPolicy> {
  const row = await policiesRepo(db).findPolicyOrDefault(
    user.domain_id,
    user.policy_id ?? user.domain_policy_id,
  );
  // Only a database that was never seeded lacks a default; the contract's default stands in for it.
  return row ? toSecurityPolicy(row) : { ...DEFAULT_POLICY, _id: "default" };
}
