import type { TagScope } from "@cellfleet/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * A tag scope (ADR 041) over a router's tags column: for each of its lists, the router carries one
 * of the list's tags (`?|`, served by the GIN index on tags). No list: true. Evaluated against the
 * tags as they are at query time, so a tag removed from a router takes it out at once.
 */
export function tagScopeCondition(tagsColumn: string, scope: TagScope): RawBuilder<SqlBool> {
  if (scope.length === 0) return sql<SqlBool>`true`;
  const column = sql.ref(tagsColumn);
  return sql<SqlBool>`(${sql.join(
    scope.map((anyOf) => sql`${column} ?| ${sql.val([...anyOf])}::text[]`),
    sql` and `,
  )})`;
}
