import { type CompiledQuery, type Kysely, sql } from "kysely";
import type { DB } from "../platform/db/schema";

// The domain rule read off compiled statements (architecture.test.ts): which tables a statement
// names, whether it compares domain_id with the domain id it was given, and which tables a domain owns.

const IDENTIFIER = `"?[a-z_][a-z0-9_]*"?`;
const TABLE_USE = new RegExp(`\\b(?:from|join|update|into)\\s+(?:only\\s+)?(${IDENTIFIER})`, "gi");

/** The tables a statement names after FROM, JOIN, UPDATE or INTO (a CTE's name included). */
export function statementTables(text: string): string[] {
  return [...text.matchAll(TABLE_USE)].map((match) => match[1].replaceAll('"', "").toLowerCase());
}

/** The 1-based placeholders whose value is `value` (or an array holding it). */
function placeholdersOf(query: CompiledQuery, value: string): number[] {
  const found: number[] = [];
  query.parameters.forEach((parameter, index) => {
    if (parameter === value || (Array.isArray(parameter) && parameter.includes(value))) found.push(index + 1);
  });
  return found;
}

/**
 * Whether a statement compares a domain_id column with the placeholder that carries `domainId`
 * (`domain_id = $n`, `$n = x.domain_id`, `domain_id in ($n)`, `domain_id = any($n)`, `is not
 * distinct from`; on `domains`, its id), or, for an INSERT, writes `domainId` into a domain_id column.
 */
export function filtersByDomain(query: CompiledQuery, domainId: string): boolean {
  const text = query.sql.toLowerCase();
  const placeholders = placeholdersOf(query, domainId);
  if (placeholders.length === 0) return false;
  // On `domains` the domain id is the row's id: qualified anywhere, bare where no other table is named.
  const onDomainsOnly = statementTables(text).every((table) => table === "domains");
  const column = `(?:(?:${IDENTIFIER}\\.)?"?domain_id"?|"?domains"?\\."?id"?${onDomainsOnly ? '|(?<![.\\w"])"?id"?' : ""})`;
  for (const n of placeholders) {
    const placeholder = `\\$${n}(?![0-9])(?:::[a-z_]+(?:\\[\\])?)?`;
    const compare = "(?:=|is not distinct from)";
    const patterns = [
      `${column}\\s*${compare}\\s*\\(?\\s*${placeholder}`,
      `${placeholder}\\s*\\)?\\s*${compare}\\s*${column}`,
      `${column}\\s+in\\s*\\(\\s*${placeholder}`,
      `${column}\\s*=\\s*any\\s*\\(\\s*${placeholder}`,
    ];
    if (patterns.some((pattern) => new RegExp(pattern).test(text))) return true;
  }
  const insert = /^\s*insert\s+into\s+\S+\s*\(([^)]*)\)/.exec(text);
  return insert !== null && /(^|[\s,])"?domain_id"?\s*(,|$)/.test(insert[1]);
}

/** The tables a domain owns, read off a migrated database. */
export interface DomainTables {
  /** Tables a query filters by domain: those with a domain_id column, and `domains` itself (by id). */
  filtered: Set<string>;
  /**
   * Every table whose rows belong to a domain: the filtered ones, those with a foreign key to one
   * (sessions to users, samples to devices…), and those keyed by a device or user id without one.
   */
  owned: Set<string>;
}

export async function readDomainTables(db: Kysely<DB>): Promise<DomainTables> {
  const columns = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db);
  const keys = await sql<{ child: string; parent: string }>`
    select distinct tc.table_name as child, ccu.table_name as parent
    from information_schema.table_constraints tc
    join information_schema.constraint_column_usage ccu
      on ccu.constraint_schema = tc.constraint_schema and ccu.constraint_name = tc.constraint_name
    where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(db);
  const filtered = new Set(["domains"]);
  const owned = new Set(["domains"]);
  for (const { table_name, column_name } of columns.rows) {
    if (column_name === "domain_id") filtered.add(table_name);
    if (["domain_id", "device_id", "user_id"].includes(column_name)) owned.add(table_name);
  }
  for (const table of filtered) owned.add(table);
  // A child of an owned table is owned: repeat until no table is added.
  for (let grown = true; grown; ) {
    grown = false;
    for (const { child, parent } of keys.rows) {
      if (owned.has(parent) && !owned.has(child)) {
        owned.add(child);
        grown = true;
      }
    }
  }
  return { filtered, owned };
}
