import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect, PostgresDialect } from "kysely";
import pg from "pg";
import { prepareStatements } from "./prepared-statements";
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

/**
 * The pool's session settings. No JIT: our statements are short, and compiling one costs more than
 * it saves (the tag facet over 100,000 devices: 90 ms with JIT, 46 without). Custom plans only: the
 * pool runs prepared statements (prepared-statements.ts), and each call is planned for its own values.
 */
const POOL_SESSION_OPTIONS = "-c jit=off -c plan_cache_mode=force_custom_plan";

/** A pool connection is ended after this long, which also lets it choose its prepared statements afresh. */
const CONNECTION_LIFETIME_SECONDS = 3600;

/**
 * The pool's connection settings: the URL, with POOL_SESSION_OPTIONS added to its `options` parameter
 * (a URL's own parameters would override a separate `options`, so one given in the URL is moved out
 * of it).
 */
export function postgresConnection(url: string): { connectionString: string; options: string } {
  const parsed = new URL(url);
  const own = parsed.searchParams.get("options");
  if (own === null) return { connectionString: url, options: POOL_SESSION_OPTIONS };
  parsed.searchParams.delete("options");
  return { connectionString: parsed.toString(), options: `${own} ${POOL_SESSION_OPTIONS}` };
}

/** Opens PostgreSQL through a pg pool, or PGlite on disk (`<dataDir>`) or in memory. */
export function openDatabase(options: DatabaseOptions): Database {
  if (options.kind === "postgres") {
    const pool = new pg.Pool({
      ...postgresConnection(options.url),
      max: options.maxConnections ?? 10,
      maxLifetimeSeconds: CONNECTION_LIFETIME_SECONDS,
    });
    pool.on("connect", (client) => prepareStatements(client));
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
