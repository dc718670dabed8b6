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

/**
 * A row naming routers by id (a jsonb array column; null: it names none) lies within the scope: it
 * names none, or every router it names still exists and carries the scope's tags (ADR 041).
 */
export function namedRoutersWithinTagScope(idsColumn: string, scope: TagScope): RawBuilder<SqlBool> {
  if (scope.length === 0) return sql<SqlBool>`true`;
  const ids = sql.ref(idsColumn);
  return sql<SqlBool>`(${ids} is null or not exists (
    select 1 from jsonb_array_elements_text(${ids}) as named(id) left join devices as nd on nd.id = named.id
    where nd.id is null or not ${tagScopeCondition("nd.tags", scope)}))`;
}

/**
 * A row naming routers by tags (a jsonb array of tags; empty: every router of the domain, a rule
 * for all) lies within the scope only when each of its tags is in every list of the scope, so every
 * router it names does whatever else it carries (`areTagsWithinTagScope` in SQL). No list: true.
 */
export function tagsWithinTagScope(tagsColumn: string, scope: TagScope): RawBuilder<SqlBool> {
  if (scope.length === 0) return sql<SqlBool>`true`;
  const tags = sql`coalesce(${sql.ref(tagsColumn)}, '[]'::jsonb)`;
  return sql<SqlBool>`(jsonb_array_length(${tags}) > 0 and ${sql.join(
    scope.map((anyOf) => sql`${tags} <@ ${JSON.stringify(anyOf)}::jsonb`),
    sql` and `,
  )})`;
}

/**
 * A row about one router (its `device_id` and `domain_id` columns) lies within the scope: that
 * router still exists in the row's domain and carries the scope's tags (ADR 041). No list: true.
 */
export function rowRouterWithinTagScope(table: string, scope: TagScope): RawBuilder<SqlBool> {
  if (scope.length === 0) return sql<SqlBool>`true`;
  return sql<SqlBool>`exists (select 1 from devices d where d.id = ${sql.ref(`${table}.device_id`)}
    and d.domain_id = ${sql.ref(`${table}.domain_id`)} and ${tagScopeCondition("d.tags", scope)})`;
}
