import { type AccountingUser, type CreateManager, Role, type UpdateManager } from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { listUsers, presentUser, readUser, removeUser } from "../users/users.service";
import { changeUser, createAccount } from "../users/users-write.service";
import { assertDomainExists } from "./domains.service";

// A domain's admins, managed by superusers from the domain's page (spec sections 2 and 3). Each call
// checks that the domain exists and that the admin belongs to it, so a path never reaches across.

/** POST /api/domain/{domain_id}/admins/. */
export async function listDomainAdmins(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
): Promise<AccountingUser[]> {
  await assertDomainExists(ctx, domainId);
  return listUsers(ctx, session, { domain_id: domainId, role: Role.Admin });
}

/** POST /api/domain/{domain_id}/admins/new. */
export async function createDomainAdmin(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
  body: CreateManager,
): Promise<AccountingUser> {
  await assertDomainExists(ctx, domainId, true);
  return presentUser(
    ctx,
    session,
    await createAccount(ctx, session, domainId, { ...body, role: Role.Admin }),
  );
}

/** The admin must exist, be an admin and belong to the domain of the path. */
async function readAdminOf(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
  userId: string,
): Promise<AccountingUser> {
  await assertDomainExists(ctx, domainId);
  const admin = await readUser(ctx, session, userId, Role.Admin);
  if (admin.domain_id !== domainId) throw new AppError("USER_NOT_FOUND", "No such admin in this domain");
  return admin;
}

/** POST /api/domain/{domain_id}/admins/{user_id} without fields. */
export function readDomainAdmin(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
  userId: string,
): Promise<AccountingUser> {
  return readAdminOf(ctx, session, domainId, userId);
}

/** POST /api/domain/{domain_id}/admins/{user_id} with fields. */
export async function changeDomainAdmin(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
  userId: string,
  changes: UpdateManager,
): Promise<AccountingUser> {
  await readAdminOf(ctx, session, domainId, userId);
  return changeUser(ctx, session, userId, changes);
}

/** DELETE /api/domain/{domain_id}/admins/{user_id}. */
export async function removeDomainAdmin(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
  userId: string,
): Promise<void> {
  await readAdminOf(ctx, session, domainId, userId);
  await removeUser(ctx, session, userId, Role.Admin);
}
