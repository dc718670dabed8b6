import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { CompiledQuery, Kysely } from "kysely";
import { format } from "sql-formatter";
import type { DB } from "../platform/db/schema";
import { createOfflineDb, type OfflineAnswer } from "./offline-db";
import { generateArgument, generatedRow, REPO_ARGUMENTS } from "./repo-arguments";

// Every repo's SQL as the code builds it (docs/ARCHITECTURE.md, "Repos"): each exported function of a
// `…Repo(db)` factory in a `*.repo.ts` file is called with generated arguments against a database that
// never connects and answers no rows, and the queries it would send are recorded. The architecture
// test reads them for the domain rule; `npm run queries -w apps/server` writes them to src/queries/ so
// that a change to a repo's SQL shows in review (immich's server/src/queries does the same).

export const SOURCE_ROOT = join(import.meta.dirname, "..");
export const SNAPSHOT_DIR = join(SOURCE_ROOT, "queries");

/** One exported query function of a repo factory. */
export interface RepoFunction {
  /** The repo's file, relative to src/. */
  file: string;
  /** `factoryName.functionName`. */
  key: string;
  parameters: string[];
  /** Calls the function on a fresh factory over `db`. */
  call(db: Kysely<DB>, args: unknown[]): Promise<unknown>;
}

/** What the generated calls of one function sent to the database. */
export interface RepoRun {
  fn: RepoFunction;
  /** The statements of the call answered no rows, in order. */
  queries: CompiledQuery[];
  /** The error that call ended with (an empty answer may end it with NoResultError), or null. */
  error: string | null;
  /** The statements only the call answered a row to every query sent (the writes after a read). */
  rowQueries: CompiledQuery[];
}

/** Every statement a function's runs sent. */
export function allQueries(run: RepoRun): CompiledQuery[] {
  return [...run.queries, ...run.rowQueries];
}

export function repoFiles(): string[] {
  return readdirSync(SOURCE_ROOT, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".repo.ts"))
    .sort();
}

/** The text inside a function's first pair of parentheses: its parameter list as written. */
function parameterText(source: string): string {
  const start = source.indexOf("(");
  if (start < 0) return source.split("=>")[0].trim();
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const ch = source[i];
    if (ch === "(" || ch === "{" || ch === "[") depth++;
    else if (ch === ")" || ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return source.slice(start + 1, i);
    }
  }
  return "";
}

/**
 * A function's parameter names as written (the test runs the TypeScript with its types stripped):
 * a destructured parameter reads `{…}`, and default values are dropped.
 */
export function parameterNames(fn: (...args: never[]) => unknown): string[] {
  const text = parameterText(fn.toString());
  const names: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of `${text},`) {
    if (ch === "(" || ch === "{" || ch === "[") depth++;
    if (ch === ")" || ch === "}" || ch === "]") depth--;
    if (ch === "," && depth === 0) {
      const name = current.trim();
      if (name !== "") names.push(/^[{[]/.test(name) ? "{…}" : name.split("=")[0].trim());
      current = "";
    } else current += ch;
  }
  return names;
}

type Factory = (db: Kysely<DB>, ...rest: unknown[]) => Record<string, unknown>;

/** Every exported `…Repo` factory's functions, and the repo files that have no factory. */
export async function listRepoFunctions(): Promise<{
  functions: RepoFunction[];
  filesWithoutFactory: string[];
}> {
  const functions: RepoFunction[] = [];
  const filesWithoutFactory: string[] = [];
  for (const file of repoFiles()) {
    const module = (await import(join(SOURCE_ROOT, file))) as Record<string, unknown>;
    const factories = Object.entries(module).filter(
      (entry): entry is [string, Factory] => entry[0].endsWith("Repo") && typeof entry[1] === "function",
    );
    if (factories.length === 0) filesWithoutFactory.push(file);
    for (const [factoryName, factory] of factories) {
      const factoryArgs = parameterNames(factory)
        .slice(1)
        .map((name) => generateArgument(name));
      for (const [name, member] of Object.entries(factory(createOfflineDb(), ...factoryArgs))) {
        if (typeof member !== "function") continue;
        functions.push({
          file,
          key: `${factoryName}.${name}`,
          parameters: parameterNames(member as (...args: never[]) => unknown),
          call: (db, args) => {
            const repo = factory(db, ...factoryArgs);
            return (repo[name] as (...args: unknown[]) => Promise<unknown>)(...args);
          },
        });
      }
    }
  }
  return { functions, filesWithoutFactory };
}

/** Every statement one call of `fn` sends, with the error it ended with (or null). */
async function record(
  fn: RepoFunction,
  args: unknown[],
  answer?: OfflineAnswer,
): Promise<{ queries: CompiledQuery[]; error: string | null }> {
  const queries: CompiledQuery[] = [];
  const db = createOfflineDb((query) => queries.push(query), answer);
  try {
    await fn.call(db, args);
    return { queries, error: null };
  } catch (caught) {
    return { queries, error: caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught) };
  }
}

/**
 * Calls one repo function twice with its declared or generated arguments: once against a database
 * answering no rows, once against one answering a generated row to every query, and records what
 * each call sent.
 */
export async function runRepoFunction(fn: RepoFunction): Promise<RepoRun> {
  const declared = REPO_ARGUMENTS[fn.key];
  const args = () => (declared ? declared.args() : fn.parameters.map((name) => generateArgument(name)));
  const empty = await record(fn, args());
  const withRow = await record(fn, args(), () => ({ rows: [generatedRow()], numAffectedRows: 1n }));
  const seen = new Set(empty.queries.map((query) => query.sql));
  return {
    fn,
    queries: empty.queries,
    error: empty.error,
    rowQueries: withRow.queries.filter((query) => !seen.has(query.sql)),
  };
}

/** The statement as the snapshot shows it: formatted, or as built when the formatter cannot read it. */
function formatStatement(text: string): string {
  try {
    return format(text, { language: "postgresql", keywordCase: "lower" });
  } catch {
    return text;
  }
}

/** The snapshot file of one repo file's runs, e.g. `devices.repo.sql`. */
export function snapshotName(file: string): string {
  return basename(file).replace(/\.ts$/, ".sql");
}

/** The text of one repo file's snapshot: every function's statements in the order they ran. */
export function snapshotText(file: string, runs: readonly RepoRun[]): string {
  const parts = [
    `-- The SQL of src/${file}, written by \`npm run queries -w apps/server\`: do not edit.\n` +
      "-- Each function ran once with generated arguments against a database answering no rows.",
  ];
  for (const run of runs) {
    const lines = [`-- ${run.fn.key}(${run.fn.parameters.join(", ")})`];
    if (run.queries.length === 0) lines.push("-- (no statement)");
    for (const query of run.queries) lines.push(`${formatStatement(query.sql)};`);
    if (run.error !== null) lines.push(`-- (ended: ${run.error.split("\n")[0]})`);
    if (run.rowQueries.length > 0) lines.push("-- with a row answered to each query, also:");
    for (const query of run.rowQueries) lines.push(`${formatStatement(query.sql)};`);
    parts.push(lines.join("\n"));
  }
  return `${parts.join("\n\n")}\n`;
}

/** Every repo function's run, grouped by repo file in file order. */
export async function runAllRepoFunctions(): Promise<Map<string, RepoRun[]>> {
  const { functions } = await listRepoFunctions();
  const byFile = new Map<string, RepoRun[]>();
  for (const fn of functions) {
    const runs = byFile.get(fn.file) ?? [];
    runs.push(await runRepoFunction(fn));
    byFile.set(fn.file, runs);
  }
  return byFile;
}
