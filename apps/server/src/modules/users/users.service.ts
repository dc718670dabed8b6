import {
  type AccountingUser,
  can,
  hasNoDomain,
  ROOT_USERNAME,
  Role,
  type UserListRequest,
} from "@cellfleet/contract";
import { assertCan, subjectOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { UserRecord } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { type AccountingUserRow, accountingUsersRepo } from "./accounting-users.repo";
import { toAccountingUser } from "./users.mapper";

// Reading and removing users with the permissions of spec section 6; creating and changing them
// lives in users-write.service.ts.

// What the users feature asks of sign-in (the auth module, above it) when an admin blocks, unblocks
// or removes someone. Auth fills both hooks in its setUp.

declare module "../../platform/hooks" {
  interface Hooks {
    /** Ends every open session of a user (removed or blocked); its sockets close. */
    "users.endSessions": (user: Pick<UserRecord, "id" | "domain_id">) => Promise<void>;
    /** Lifts the sign-in blocks of each of the user's browsers once an admin unblocks it (ADR 016). */
    "users.unblocked": (userId: string) => Promise<void>;
  }
}

/** The caller's view of a user: the policy column only for superusers and admins with accounting. */
export function presentUser(
  ctx: AppContext,
  session: SessionContext,
  row: AccountingUserRow,
): AccountingUser {
  const user = toAccountingUser(row, ctx.now());
  return can(subjectOf(session), "users.seePolicy") ? user : { ...user, policy: null };
}

/**
 * A user the caller may see: superusers any, others only their domain's. Unknown and other
 * domains' users answer USER_NOT_FOUND; removed ones USER_REMOVED.
 */
export async function findVisibleUser(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
): Promise<AccountingUserRow> {
  const users = accountingUsersRepo(ctx.db);
  // Superusers, who have no domain, see every domain's users.
  const row =
    session.domainId === null
      ? await users.findAccountingUserAcrossDomains(userId)
      : await users.findAccountingUser(session.domainId, userId);
  if (!row) throw new AppError("USER_NOT_FOUND", "No such user");
  if (row.removed_at !== null) throw new AppError("USER_REMOVED", "The user was removed");
  return row;
}

/**
 * The demo user is listed and readable like anyone (issue 11: the demo session saw an empty list
 * and could not read its own record), but nobody changes or removes it: the demo must keep working.
 */
export function assertNotDemoUser(row: AccountingUserRow): void {
  if (row.is_demo) throw new AppError("DEMO_PERMISSIONS_DENIED", "The demo user cannot be changed");
}

/** POST /api/users/: superusers see every user or one domain's; admins and helpers their domain's. */
export async function listUsers(
  ctx: AppContext,
  session: SessionContext,
  request: UserListRequest,
): Promise<AccountingUser[]> {
  const users = accountingUsersRepo(ctx.db);
  const filter = { search: request.search, role: request.role };
  let rows: AccountingUserRow[];
  if (session.domainId === null) {
    rows = request.domain_id
      ? await users.listUsers(request.domain_id, filter)
      : await users.listUsersAcrossDomains(filter);
  } else {
    rows = await users.listUsers(session.domainId, filter);
  }
  return rows.map((row) => presentUser(ctx, session, row));
}

/** POST /api/user/{user_id} with no fields. */
export async function readUser(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
  expectedRole?: Role,
): Promise<AccountingUser> {
  const row = await findVisibleUser(ctx, session, userId);
  if (expectedRole !== undefined && row.role !== expectedRole)
    throw new AppError("USER_NOT_FOUND", "No such user");
  return presentUser(ctx, session, row);
}

/**
 * DELETE /api/user/{user_id}: superusers and admins only (the route's permission); nobody removes
 * itself, and the table decides whose role the caller may remove. The row stays (removed_at); its sessions end.
 */
export async function removeUser(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
  expectedRole?: Role,
): Promise<void> {
  const target = await findVisibleUser(ctx, session, userId);
  if (expectedRole !== undefined && target.role !== expectedRole)
    throw new AppError("USER_NOT_FOUND", "No such user");
  if (target.id === session.user.id) throw new AppError("PERMISSION_DENIED", "You cannot remove yourself");
  assertNotDemoUser(target);
  assertCan(session, "users.delete", { role: target.role as Role });
  if (target.username === ROOT_USERNAME && hasNoDomain(target.role as Role))
    throw new AppError("PERMISSION_DENIED", "The root cannot be removed");
  await accountingUsersRepo(ctx.db).removeUser(target.domain_id, target.id, ctx.now());
  await ctx.hooks.get("users.endSessions")(target);
}

/** POST /api/superusers/: the superusers list. */
export function listSuperusers(
  ctx: AppContext,
  session: SessionContext,
  search: string | undefined,
): Promise<AccountingUser[]> {
  return listUsers(ctx, session, { search, role: Role.Superuser });
}

/** POST /api/superuser/{user_id} without fields: USER_NOT_FOUND for anyone but a superuser. */
export function readSuperuser(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
): Promise<AccountingUser> {
  return readUser(ctx, session, userId, Role.Superuser);
}

/** DELETE /api/superuser/{user_id}. */
export function removeSuperuser(ctx: AppContext, session: SessionContext, userId: string): Promise<void> {
  return removeUser(ctx, session, userId, Role.Superuser);
}
