// npm run test:pg: the server tests that run only on PostgreSQL (two nodes on one database, the pool's
// settings), against a fresh database created for the run and dropped afterwards. The admin URL is
// PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres). On PGlite these tests report as
// skipped; a file is PostgreSQL-only when it gates a suite on DATABASE_URL (POSTGRES_ONLY below).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const POSTGRES_ONLY = /\.(skipIf\(!serverUrl\)|runIf\(process\.env\.DATABASE_URL\))/;
const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `cf_pg_${Date.now()}_${process.pid}`;

const files = readdirSync(join(root, "apps/server/src"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => join(root, "apps/server/src", file))
  .filter((file) => POSTGRES_ONLY.test(readFileSync(file, "utf8")))
  .map((file) => relative(root, file))
  .sort();
if (files.length === 0) {
  console.error("test:pg: no PostgreSQL-only test files found");
  process.exit(1);
}

const database = (action) =>
  spawnSync(process.execPath, [join(root, "scripts/pg-database.mjs"), action, adminUrl, name], {
    stdio: "inherit",
  });
if (database("create").status !== 0) process.exit(1);
const databaseUrl = `${adminUrl.slice(0, adminUrl.lastIndexOf("/"))}/${name}`;
const run = spawnSync("npx", ["vitest", "run", "--project", "server", ...files], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: databaseUrl },
});
database("drop");
process.exit(run.status ?? 1);
