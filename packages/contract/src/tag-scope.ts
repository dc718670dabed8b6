import { kindOf } from "./permission-subjects";
import type { Role } from "./roles";

// People limited to their routers (issue 30, docs/adr/041-tag-scopes.md): an admin limits an
// assistant, a junior or an operator to the routers carrying one of chosen tags; an API token may
// narrow its person's scope further. The server applies it in one place, beside the domain rule.

/** Whether a user of `role` may be limited to tags: assistants, juniors and operators, not admins. */
export function mayHaveTagScope(role: Role): boolean {
  const kind = kindOf({ role });
  return kind === "assistant" || kind === "operator";
}

/**
 * The routers one caller reaches, as conditions that must all hold: each list names tags of which a
 * router must carry at least one (the person's scope, then the token's). No list: every router of
 * the domain. A token's list is added, never merged, so it can only narrow.
 */
export type TagScope = readonly (readonly string[])[];

/** The scope of a person and, when the call came with one, of their token: empty lists drop out. */
export function combineTagScopes(...scopes: readonly (readonly string[])[]): TagScope {
  return scopes.filter((tags) => tags.length > 0);
}

/** Whether a router with `tags` lies within `scope`. */
export function isWithinTagScope(scope: TagScope, tags: readonly string[]): boolean {
  return scope.every((anyOf) => anyOf.some((tag) => tags.includes(tag)));
}

/**
 * Whether every router carrying one of `tags` lies within `scope`, whatever else it carries: each
 * tag is in every list of the scope. A rule that names routers by tags (a schedule's group) is
 * within a scope only so; one naming every router (no tag) only within no scope.
 */
export function areTagsWithinTagScope(scope: TagScope, tags: readonly string[]): boolean {
  if (scope.length === 0) return true;
  return tags.length > 0 && tags.every((tag) => isWithinTagScope(scope, [tag]));
}
