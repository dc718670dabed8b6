import {
  type CreateDomain,
  type DomainDetail,
  type DomainListAnswer,
  type DomainListRequest,
  Role,
  type UpdateDomainBody,
} from "@cellfleet/contract";
import type { Updateable } from "kysely";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { domainsRepo } from "../../platform/db/domains.repo";
import type { DomainsTable } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { policiesRepo } from "../policies/policies.repo";
import { accountingUsersRepo } from "../users/accounting-users.repo";
import { presentUser } from "../users/users.service";
import { domainListRepo } from "./domain-list.repo";
import { toDomainDetail, toDomainListItem } from "./domains.mapper";

// Domains for superusers (spec sections 2 and 3); the routes admit whom the permission table lets.

/** POST /api/domains/. */
export async function listDomains(ctx: AppContext, request: DomainListRequest): Promise<DomainListAnswer> {
  const { rows, total } = await domainListRepo(ctx.db).listDomainsAcrossDomains(
    request.search,
    { limit: request.limit, offset: request.offset },
    ctx.now(),
  );
  return { items: rows.map(toDomainListItem), total };
}

/** POST /api/domain/{domain_id} without fields: DOMAIN_NOT_FOUND when unknown. */
export async function readDomain(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
): Promise<DomainDetail> {
  const row = await domainListRepo(ctx.db).findDomainWithCounts(domainId, ctx.now());
  if (!row) throw new AppError("DOMAIN_NOT_FOUND", "No such domain");
  const policyRow = row.policy_id
    ? await policiesRepo(ctx.db).findPolicyAcrossDomains(row.policy_id)
    : undefined;
  const admins = await accountingUsersRepo(ctx.db).listUsers(domainId, { role: Role.Admin });
  return toDomainDetail(
    row,
    policyRow ? { _id: policyRow.id, name: policyRow.name } : null,
    admins.map((admin) => presentUser(ctx, session, admin)),
  );
}

async function checkPolicy(
  ctx: AppContext,
  domainId: string | null,
  policyId: string | null | undefined,
): Promise<void> {
  if (!policyId) return;
  if (!(await policiesRepo(ctx.db).findUsablePolicy(domainId, policyId))) {
    throw new AppError("BAD_REQUEST", "policy_id: no such policy for this domain");
  }
}

function toColumns(fields: UpdateDomainBody): Updateable<DomainsTable> {
  const columns: Updateable<DomainsTable> = {};
  for (const key of ["name", "full_name", "tin", "email", "phone", "manager", "policy_id"] as const) {
    if (fields[key] !== undefined) Object.assign(columns, { [key]: fields[key] });
  }
  // 0 in the column means no limit, as the device gateway reads it.
  if (fields.device_limit !== undefined) columns.device_limit = fields.device_limit ?? 0;
  return columns;
}

/** POST /api/domains/new: DOMAIN_ALREADY_EXIST when the name is taken, DOMAIN_CREATE_ERROR when the write fails. */
export async function createDomain(
  ctx: AppContext,
  session: SessionContext,
  body: CreateDomain,
): Promise<DomainDetail> {
  const repo = domainsRepo(ctx.db);
  if (await repo.findDomainByNameAcrossDomains(body.name))
    throw new AppError("DOMAIN_ALREADY_EXIST", "A domain with this name exists");
  await checkPolicy(ctx, null, body.policy_id);
  let id: string;
  try {
    id = await repo.insertDomain({ ...toColumns(body), name: body.name, create_time: ctx.now() });
  } catch (error) {
    if (await repo.findDomainByNameAcrossDomains(body.name))
      throw new AppError("DOMAIN_ALREADY_EXIST", "A domain with this name exists");
    ctx.log.error({ err: error }, "domain not created");
    throw new AppError("DOMAIN_CREATE_ERROR", "The domain could not be created");
  }
  return readDomain(ctx, session, id);
}

/** POST /api/domain/{domain_id} with fields. */
export async function updateDomain(
  ctx: AppContext,
  session: SessionContext,
  domainId: string,
  changes: UpdateDomainBody,
): Promise<DomainDetail> {
  const repo = domainsRepo(ctx.db);
  const current = await repo.findDomain(domainId);
  if (!current) throw new AppError("DOMAIN_NOT_FOUND", "No such domain");
  if (current.is_demo) throw new AppError("DEMO_PERMISSIONS_DENIED", "The demo domain cannot be changed");
  if (
    changes.name !== undefined &&
    changes.name !== current.name &&
    (await repo.findDomainByNameAcrossDomains(changes.name))
  ) {
    throw new AppError("DOMAIN_ALREADY_EXIST", "A domain with this name exists");
  }
  await checkPolicy(ctx, domainId, changes.policy_id);
  await repo.updateDomain(domainId, toColumns(changes));
  return readDomain(ctx, session, domainId);
}

/**
 * The domain of an admins route: DOMAIN_NOT_FOUND when unknown. The demo domain's admins are shown
 * but none is added to it (DEMO_PERMISSIONS_DENIED when `isChange`).
 */
export async function assertDomainExists(ctx: AppContext, domainId: string, isChange = false): Promise<void> {
  const row = await domainsRepo(ctx.db).findDomain(domainId);
  if (!row) throw new AppError("DOMAIN_NOT_FOUND", "No such domain");
  if (row.is_demo && isChange)
    throw new AppError("DEMO_PERMISSIONS_DENIED", "The demo domain cannot be changed");
}
