import { randomUUID } from "node:crypto";
import type { SecurityPolicy } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { likePattern } from "../../platform/db/like";
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

    /** A policy the domain may use: its own or a global one (superusers: global ones). */
    async findUsablePolicy(
      domainId: string | null,
      policyId: string,
    ): Promise<SecurityPolicyRow | undefined> {
      return db
        .selectFrom("security_policies")
        .selectAll()
        .where("id", "=", policyId)
        .where((eb) => eb.or([eb("domain_id", domainOp(domainId), domainId), eb("domain_id", "is", null)]))
        .executeTakeFirst();
    },

    /** The policies a domain may use (its own and the global ones), the default left out. */
    async listPolicies(domainId: string, search: string | undefined): Promise<SecurityPolicyRow[]> {
      let query = db
        .selectFrom("security_policies")
        .selectAll()
        .where("is_default", "=", false)
        .where((eb) => eb.or([eb("domain_id", "=", domainId), eb("domain_id", "is", null)]));
      if (search)
        query = query.where((eb) =>
          eb(eb.fn("lower", ["name"]), "like", likePattern(search.trim().toLowerCase())),
        );
      return query.orderBy("name").execute();
    },

    /** Every policy of every domain and the global ones, the default left out (superusers). */
    async listPoliciesAcrossDomains(search: string | undefined): Promise<SecurityPolicyRow[]> {
      let query = db.selectFrom("security_policies").selectAll().where("is_default", "=", false);
      if (search)
        query = query.where((eb) =>
          eb(eb.fn("lower", ["name"]), "like", likePattern(search.trim().toLowerCase())),
        );
      return query.orderBy("name").execute();
    },

    /** A policy of the domain or a global one. */
    async findPolicy(domainId: string, policyId: string): Promise<SecurityPolicyRow | undefined> {
      return this.findUsablePolicy(domainId, policyId);
    },

    async findPolicyAcrossDomains(policyId: string): Promise<SecurityPolicyRow | undefined> {
      return db.selectFrom("security_policies").selectAll().where("id", "=", policyId).executeTakeFirst();
    },

    /** Inserts a (non-default) policy and answers its id. */
    async createPolicy(
      domainId: string | null,
      policy: Omit<SecurityPolicy, "_id" | "is_default">,
      at: Date,
    ): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto("security_policies")
        .values({
          ...policy,
          id,
          domain_id: domainId,
          is_default: false,
          forbidden_sequences: toJsonb(policy.forbidden_sequences),
          forbidden_phrases: toJsonb(policy.forbidden_phrases),
          create_time: at,
        })
        .execute();
      return id;
    },

    /** Changes a policy of the domain (null: a global one). */
    async updatePolicy(
      domainId: string | null,
      policyId: string,
      changes: Partial<Omit<SecurityPolicy, "_id" | "is_default">>,
    ): Promise<void> {
      const { forbidden_sequences, forbidden_phrases, ...rest } = changes;
      await db
        .updateTable("security_policies")
        .set({
          ...rest,
          ...(forbidden_sequences ? { forbidden_sequences: toJsonb(forbidden_sequences) } : {}),
          ...(forbidden_phrases ? { forbidden_phrases: toJsonb(forbidden_phrases) } : {}),
        })
        .where("id", "=", policyId)
        .where("domain_id", domainOp(domainId), domainId)
        .execute();
    },

    /** Every policy the domain may use, the default included (null: the global ones only). */
    async listUsablePolicies(domainId: string | null): Promise<SecurityPolicyRow[]> {
      return db
        .selectFrom("security_policies")
        .selectAll()
        .where((eb) => eb.or([eb("domain_id", domainOp(domainId), domainId), eb("domain_id", "is", null)]))
        .orderBy("is_default", "desc")
        .orderBy("name")
        .execute();
    },
  };
}
