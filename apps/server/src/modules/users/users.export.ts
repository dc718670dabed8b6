import { CSV_EXPORT_CHUNK, type UserListRequest } from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { accountingUsersRepo } from "./accounting-users.repo";
import { presentUser } from "./users.service";

/** Columns of users.csv: the list's columns (spec section 2, user list) and the domain. */
export const USER_CSV_COLUMNS = [
  "username",
  "full_name",
  "role",
  "email",
  "phone",
  "policy",
  "last_login",
  "blocked",
  "domain",
] as const;

/**
 * POST /api/users/export: the users POST /api/users/ lists for the same body (a superuser every
 * user or one domain's, others their own domain's), by username, a keyset page a yield.
 */
export async function* exportUsersRows(
  ctx: AppContext,
  session: SessionContext,
  request: UserListRequest,
): AsyncGenerator<CsvCell[][]> {
  const users = accountingUsersRepo(ctx.db);
  const filter = { search: request.search, role: request.role };
  const domainId = session.domainId === null ? (request.domain_id ?? null) : session.domainId;
  const isEveryone = session.domainId === null && !request.domain_id;
  const pages = keysetPages(
    (after: string | null, limit) =>
      isEveryone || domainId === null
        ? users.listUsersAfterAcrossDomains(filter, after, limit)
        : users.listUsersAfter(domainId, filter, after, limit),
    (row) => row.username,
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows
      .map((row) => presentUser(ctx, session, row))
      .map((user) => [
        user.username,
        user.full_name,
        user.role,
        user.email,
        user.phone,
        user.policy?.name ?? null,
        user.last_login === null ? null : new Date(user.last_login).toISOString(),
        user.blocked ? "yes" : "no",
        user.domain_name,
      ]);
  }
}
