import { randomUUID } from "node:crypto";
import type { SecurityPolicy } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { type DB, type SecurityPolicyRow, toJsonb } from "../../platform/db/schema";

/** Security policies: a domain's own (domain_id set) or global ones (domain_id null, e.g. the default). */
export function policiesRepo(db: Kysely<DB>) {
  return {
    /** The installation's default policy (global, at most one). */
    async findDefaultPolicy(): Promise<SecurityPolicyRow | undefined> {
      return db
        .selectFrom("security_policies")
        .selectAll()
        .where("is_default", "=", true)
        .where("domain_id", "is", null)
        .executeTakeFirst();
    },

    /**
     * The policy `policyId` if the domain may use it (its own or a global one), else the default.
     * Superusers pass a null domain and see only global policies.
     */
    async findPolicyOrDefault(
      domainId: string | null,
      policyId: string | null,
    ): Promise<SecurityPolicyRow | undefined> {
      return db
        .selectFrom("security_policies")
        .selectAll()
        .where((eb) =>
          eb.and([
            eb.or([eb("domain_id", domainOp(domainId), domainId), eb("domain_id", "is", null)]),
            eb.or([eb("id", "=", policyId ?? ""), eb("is_default", "=", true)]),
          ]),
        )
        .orderBy("is_default", "asc")
        .limit(1)
        .executeTakeFirst();
    },

    /** Inserts a policy; a second default is silently skipped, so concurrent first starts agree. */
    async insertPolicy(
      domainId: string | null,
      policy: Omit<SecurityPolicy, "_id">,
      at: Date,
    ): Promise<void> {
      await db
        .insertInto("security_policies")
        .values({
          ...policy,
          id: randomUUID(),
          domain_id: domainId,
          forbidden_sequences: toJsonb(policy.forbidden_sequences),
          forbidden_phrases: toJsonb(policy.forbidden_phrases),
          create_time: at,
        })
        .onConflict((oc) => oc.column("is_default").where("is_default", "=", true).doNothing())
        .execute();
    },
  };
}
