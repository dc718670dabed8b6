// A domain with an admin who can sign in over HTTP (the default security policy, the domain's
// settings, a user with a password hash), for the benchmarks whose clients sign in as browsers do.
import { randomUUID } from "node:crypto";
import { DEFAULT_DOMAIN_SETTINGS, DEFAULT_POLICY } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import { type DB, toJsonb } from "../apps/server/src/platform/db/schema";

export interface BenchAccount {
  domainId: string;
  username: string;
  password: string;
}

/** Creates the domain (with `domainId` when given) and its admin; answers how to sign in. */
export async function seedBenchAccount(
  db: Kysely<DB>,
  domainId: string = randomUUID(),
): Promise<BenchAccount> {
  await db
    .insertInto("security_policies")
    .values({
      ...DEFAULT_POLICY,
      id: randomUUID(),
      domain_id: null,
      is_default: true,
      forbidden_sequences: toJsonb(DEFAULT_POLICY.forbidden_sequences),
      forbidden_phrases: toJsonb(DEFAULT_POLICY.forbidden_phrases),
    })
    .onConflict((oc) => oc.column("is_default").where("is_default", "=", true).doNothing())
    .execute();
  await db
    .insertInto("domains")
    .values({
      id: domainId,
      name: `bench_${domainId.slice(0, 8)}`,
      settings: toJsonb(DEFAULT_DOMAIN_SETTINGS),
    })
    .execute();
  const username = `bench_${domainId.slice(0, 8)}`;
  const password = `Bench-${randomUUID()}`;
  await db
    .insertInto("users")
    .values({
      id: randomUUID(),
      domain_id: domainId,
      username,
      role: 2,
      plugins: toJsonb([]),
      password_hash: await hashPassword(password),
      password_changed_at: new Date(),
    })
    .execute();
  return { domainId, username, password };
}
