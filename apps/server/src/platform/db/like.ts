/** `%text%` for LIKE/ILIKE with `\`, `%` and `_` taken literally (PostgreSQL's default escape). */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
