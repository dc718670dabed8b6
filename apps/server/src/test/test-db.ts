import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../platform/db/database";
import { MIGRATIONS, migrateToLatest } from "../platform/db/migrate";

/** A migrated database of one test file's own, and how to throw it away. */
export interface TestDatabase {
  database: Database;
  /** The PostgreSQL URL of the test's database (unset on PGlite), so a test can open a second pool. */
  url?: string;
  drop(): Promise<void>;
}

/** Runs one statement on the server at `serverUrl` (creating or dropping a test database). */
export async function runAdminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Waits until no session is connected to `database`, or `timeoutMs` has passed. */
async function waitForNoConnections(serverUrl: string, database: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const result = await client.query(
        "select count(*)::int as n from pg_stat_activity where datname = $1",
        [database],
      );
      if (result.rows[0]?.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

/** PGlite's version; its package.json is not exported, so it is found beside the entry point. */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  while (dir !== path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (manifest.name === "@electric-sql/pglite") return manifest.version ?? "unknown";
    }
    dir = path.dirname(dir);
  }
  return "unknown";
}

/** Changes whenever a migration's code or the PGlite version changes. */
function snapshotKey(): string {
  const hash = createHash("sha256").update(pgliteVersion());
  for (const [name, migration] of Object.entries(MIGRATIONS)) hash.update(name).update(String(migration.up));
  return hash.digest("hex").slice(0, 16);
}

let snapshot: Promise<Blob> | undefined;

/**
 * A freshly migrated PGlite cluster as a tarball. Creating a PGlite cluster (initdb in WASM) takes
 * seconds, loading one takes a fraction of that, so the snapshot is made once and kept in the OS
 * temp dir for every later test file and run.
 */
function migratedPgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = path.join(tmpdir(), `cellfleet-pglite-${snapshotKey()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const { PGlite } = await import("@electric-sql/pglite");
    const { Kysely, PGliteDialect } = await import("kysely");
    const pglite = new PGlite();
    const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite }) });
    await migrateToLatest(db);
    const bytes = Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer());
    await db.destroy();
    // Write then rename, so a test file running in parallel never reads half a snapshot.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return new Blob([bytes]);
  })();
  return snapshot;
}

/**
 * PGlite in memory by default. With DATABASE_URL set, a fresh PostgreSQL database
 * `cf_test_<random>` is created on that server, migrated, and dropped by drop().
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const database = openDatabase({
      kind: "pglite",
      inMemory: true,
      snapshot: await migratedPgliteSnapshot(),
    });
    // A no-op on an up-to-date snapshot; still run so the database is never behind the code.
    await migrateToLatest(database.db);
    return { database, drop: () => database.close() };
  }
  const name = `cf_test_${randomBytes(6).toString("hex")}`;
  await runAdminQuery(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 4 });
  await migrateToLatest(database.db);
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      // pg's pool.end() resolves before its clients' sockets have closed; dropping with force at that
      // moment kills a backend whose client is still ending, which then emits an unhandled FATAL
      // 57P01. So wait (bounded) until the server has let go of every connection to the database.
      await waitForNoConnections(serverUrl, name, 2000);
      await runAdminQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}
