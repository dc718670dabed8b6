import {
  type CreatePolicy,
  type DictionaryKind,
  fileExtension,
  type PolicyDetail,
  type PolicyLevel,
  type PolicyListItem,
  parseDictionary,
  type UpdatePolicy,
  validateDictionaryFile,
} from "@cellfleet/contract";
import { assertCan } from "../../platform/auth/permissions";
import { hasPlugin } from "../../platform/auth/plugins";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { domainsRepo } from "../../platform/db/domains.repo";
import type { SecurityPolicyRow } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { toSecurityPolicy } from "./policies.mapper";
import { policiesRepo } from "./policies.repo";

// The policy list and page (spec sections 2, 3 and 6): superusers see and change every policy;
// admins see their domain's and the global ones and change only their domain's.

function toDetail(row: SecurityPolicyRow): PolicyDetail {
  return { ...toSecurityPolicy(row), domain_id: row.domain_id };
}

/** POST /api/policies/: empty without the accounting plugin (spec section 6); the default is hidden. */
export async function listPolicies(
  ctx: AppContext,
  session: SessionContext,
  search: string | undefined,
): Promise<PolicyListItem[]> {
  if (!hasPlugin(session, "accounting")) return [];
  const repo = policiesRepo(ctx.db);
  const rows =
    session.domainId === null
      ? await repo.listPoliciesAcrossDomains(search)
      : await repo.listPolicies(session.domainId, search);
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    policy_level: row.policy_level as PolicyLevel,
    domain_id: row.domain_id,
  }));
}

/** POST /api/accounting/domain: the policies a domain may use; empty without the accounting plugin. */
export async function listDomainPolicies(
  ctx: AppContext,
  session: SessionContext,
  domainId: string | undefined,
): Promise<PolicyListItem[]> {
  if (!hasPlugin(session, "accounting")) return [];
  // Superusers (no domain of their own) name the domain; everyone else asks about their own.
  const target = session.domainId === null ? (domainId ?? null) : session.domainId;
  if (target !== null && !(await domainsRepo(ctx.db).findDomain(target))) {
    throw new AppError("DOMAIN_NOT_FOUND", "No such domain");
  }
  const rows = await policiesRepo(ctx.db).listUsablePolicies(target);
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    policy_level: row.policy_level as PolicyLevel,
    domain_id: row.domain_id,
  }));
}

async function findVisiblePolicy(
  ctx: AppContext,
  session: SessionContext,
  policyId: string,
): Promise<SecurityPolicyRow> {
  const repo = policiesRepo(ctx.db);
  const row =
    session.domainId === null
      ? await repo.findPolicyAcrossDomains(policyId)
      : await repo.findPolicy(session.domainId, policyId);
  if (!row) throw new AppError("BAD_IDENT", "No such policy", { status: 404 });
  return row;
}

/** A policy the caller may change: superusers any, admins only their domain's own. */
async function findChangeablePolicy(
  ctx: AppContext,
  session: SessionContext,
  policyId: string,
): Promise<SecurityPolicyRow> {
  const row = await findVisiblePolicy(ctx, session, policyId);
  assertCan(session, "policies.edit", { domain_id: row.domain_id });
  return row;
}

/** POST /api/policy/{policy_id} without fields. */
export async function readPolicy(
  ctx: AppContext,
  session: SessionContext,
  policyId: string,
): Promise<PolicyDetail> {
  return toDetail(await findVisiblePolicy(ctx, session, policyId));
}

/** POST /api/policy/new (superusers, by the route's permission): global unless a domain is named. */
export async function createPolicy(
  ctx: AppContext,
  session: SessionContext,
  body: CreatePolicy,
): Promise<PolicyDetail> {
  const { domain_id: domainId, ...fields } = body;
  const repo = policiesRepo(ctx.db);
  if (domainId !== null) {
    if (!(await domainsRepo(ctx.db).findDomain(domainId)))
      throw new AppError("DOMAIN_NOT_FOUND", "No such domain");
  }
  const id = await repo.createPolicy(domainId, fields, ctx.now());
  return readPolicy(ctx, session, id);
}

/** POST /api/policy/{policy_id} with fields. */
export async function updatePolicy(
  ctx: AppContext,
  session: SessionContext,
  policyId: string,
  changes: UpdatePolicy,
): Promise<PolicyDetail> {
  const row = await findChangeablePolicy(ctx, session, policyId);
  const merged = { ...toSecurityPolicy(row), ...changes };
  if (
    merged.password_min_length > merged.password_max_length ||
    merged.admin_min_length > merged.password_max_length
  ) {
    throw new AppError("BAD_REQUEST", "password_min_length: the minimum lengths may not exceed the maximum");
  }
  await policiesRepo(ctx.db).updatePolicy(row.domain_id, row.id, changes);
  return readPolicy(ctx, session, row.id);
}

/** An uploaded file as the dictionary upload sees it. */
export interface DictionaryUpload {
  filename: string;
  bytes: Buffer;
}

/**
 * Replaces a policy's forbidden sequences or phrases with a .txt/.csv file's entries (one per
 * line). Non-UTF-8 bytes answer UNSUPPORTED_ENCODING: a fatal TextDecoder refuses them rather than
 * letting replacement characters into the list.
 */
export async function uploadDictionary(
  ctx: AppContext,
  session: SessionContext,
  policyId: string,
  kind: DictionaryKind,
  upload: DictionaryUpload | null,
): Promise<PolicyDetail> {
  const row = await findChangeablePolicy(ctx, session, policyId);
  if (!upload || upload.filename.trim() === "")
    throw new AppError("DICTIONARY_FILE_NOT_GIVEN", "No file given");
  const problem = validateDictionaryFile({ name: upload.filename, size: upload.bytes.length });
  if (problem === "invalidFileType" || problem === "emptyFile") {
    throw new AppError("DICTIONARY_FILE_NOT_TEXT", "The dictionary must be a non-empty .txt or .csv file");
  }
  if (problem === "tooLarge") throw new AppError("BAD_REQUEST", "The file is too large", { status: 413 });
  if (problem === "noFile") throw new AppError("DICTIONARY_FILE_NOT_GIVEN", "No file given");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(upload.bytes);
  } catch {
    throw new AppError("UNSUPPORTED_ENCODING", "The file is not UTF-8 text");
  }
  if (text.includes("\u0000")) throw new AppError("DICTIONARY_FILE_NOT_TEXT", "The file is not text");
  const entries = parseDictionary(text, `x.${fileExtension(upload.filename)}`);
  if (entries.length === 0) throw new AppError("DICTIONARY_FILE_NOT_TEXT", "The file holds no entries");
  const field = kind === "sequences" ? "forbidden_sequences" : "forbidden_phrases";
  await policiesRepo(ctx.db).updatePolicy(row.domain_id, row.id, { [field]: entries });
  return readPolicy(ctx, session, row.id);
}
