import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect, PostgresDialect } from "kysely";
import pg from "pg";
import type { DB } from "./schema";

/** Which engine is behind the Kysely instance. */
export type DatabaseKind = "pglite" | "postgres";

/** An open database: the Kysely handle, its engine and how to close it. */
export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: "postgres"; url: string; maxConnections?: number }
  | { kind: "pglite"; dataDir: string }
  /** `snapshot`: a dumpDataDir() tarball to start from instead of an empty cluster (tests use it). */
  | { kind: "pglite"; inMemory: true; snapshot?: Blob };

/** Opens PostgreSQL through a pg pool, or PGlite on disk (`<dataDir>`) or in memory. */
export function openDatabase(options: DatabaseOptions): Database {
  if (options.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    // db.destroy() ends the pool.
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  let pglite: PGlite;
  if ("inMemory" in options) {
    pglite = options.snapshot ? new PGlite({ loadDataDir: options.snapshot }) : new PGlite();
  } else {
    mkdirSync(path.dirname(options.dataDir), { recursive: true });
    pglite = new PGlite(options.dataDir);
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: "pglite",
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
