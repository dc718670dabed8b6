import { type Kysely, sql } from "kysely";

/**
 * Holds a transaction-scoped advisory lock named `name` until the transaction ends, so work that
 * must happen once (first-start seeding) is not done twice by server nodes starting together.
 */
export async function takeTransactionLock<T>(trx: Kysely<T>, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}
