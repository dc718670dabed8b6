import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../apps/server/src/platform/db/database";

// A database of a benchmark's own: PGlite on disk in a temp directory, or a fresh PostgreSQL
// database on BENCH_DATABASE_URL (or DATABASE_URL), dropped afterwards.

/** The PostgreSQL server the benchmarks make their databases on. */
export const BENCH_PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Opens a fresh store of the engine (`prefix` names its temp dir or database); drop() removes it.
 * `url` is the PostgreSQL database's (for samplers of its backends), null for PGlite.
 */
export async function openBenchStore(
  engine: "pglite" | "postgres",
  prefix: string,
): Promise<{ database: Database; url: string | null; drop(): Promise<void> }> {
  if (engine === "pglite") {
    const dir = mkdtempSync(path.join(tmpdir(), `cellfleet-${prefix}-`));
    const database = openDatabase({ kind: "pglite", dataDir: path.join(dir, "db") });
    return {
      database,
      url: null,
      drop: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `cf_${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: BENCH_PG_URL });
    await client.connect();
    return client.query(statement, values).finally(() => client.end());
  };
  await admin(`create database "${name}"`);
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${name}`;
  const database = openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 10 });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      // pool.end() resolves before its sockets close; a forced drop then would kill a backend whose
      // client is still ending (an unhandled FATAL 57P01), so wait until the server let go of them.
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const open = await admin("select count(*)::int as n from pg_stat_activity where datname = $1", [
          name,
        ]);
        if (open.rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}
