import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, beforeAll } from "vitest";
import { openDatabase } from "../platform/db/database";
import { MIGRATIONS } from "../platform/db/migrate";

/** An empty in-memory database for a migration's own test, opened before and closed after the file's tests. */
export function useMigrationTestDb(): { readonly db: Kysely<unknown>; migrator(): Migrator } {
  let db: Kysely<unknown> | undefined;
  let close = async () => {};
  beforeAll(async () => {
    const database = openDatabase({ kind: "pglite", inMemory: true });
    db = database.db as unknown as Kysely<unknown>;
    close = () => database.close();
  });
  afterAll(async () => {
    await close();
  });
  const opened = () => {
    if (!db) throw new Error("The migration test database opens in beforeAll");
    return db;
  };
  return {
    get db() {
      return opened();
    },
    migrator: () => new Migrator({ db: opened(), provider: { getMigrations: async () => MIGRATIONS } }),
  };
}
