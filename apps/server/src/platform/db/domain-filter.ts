/**
 * The comparison that matches a domain_id column to a domain id, where null (superusers, global
 * rows) must be matched with `is`: `.where("users.domain_id", domainOp(domainId), domainId)`.
 */
export function domainOp(domainId: string | null): "is" | "=" {
  return domainId === null ? "is" : "=";
}
