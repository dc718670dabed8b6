import { randomBytes, randomUUID } from "node:crypto";
import {
  API_TOKEN_MAX_DAYS,
  API_TOKEN_MAX_PER_USER,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenOptions,
  apiTokenActionsFor,
  type CreateApiToken,
  type CreatedApiToken,
} from "@cellfleet/contract";
import { assertNotApiToken, subjectOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import { hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { type ApiTokenRow, apiTokensRepo } from "./api-tokens.repo";

const DAY_MS = 86_400_000;

/** The one mapper of a token row: what lists and the creation answer show (never the secret). */
export function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    _id: row.id,
    name: row.name,
    user_id: row.user_id,
    username: row.username,
    permissions: row.permissions,
    allowed_ips: row.allowed_ips,
    tag_scope: row.tag_scope,
    create_time: row.create_time.getTime(),
    expires_at: row.expires_at.getTime(),
    last_used_at: row.last_used_at?.getTime() ?? null,
    last_used_ip: row.last_used_ip,
    revoked_at: row.revoked_at?.getTime() ?? null,
  };
}

/** A new secret: the prefix and 32 random bytes in base64url (ADR 003's session tokens, ADR 040). */
function generateApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** What the caller may put on a token: the actions the table lets them do now, less what no token carries. */
export function apiTokenOptions(session: SessionContext): ApiTokenOptions {
  return { permissions: apiTokenActionsFor(subjectOf(session)), max_days: API_TOKEN_MAX_DAYS };
}

/** The caller's own tokens. */
export async function listOwnTokens(ctx: AppContext, session: SessionContext): Promise<ApiToken[]> {
  const rows = await apiTokensRepo(ctx.db).listTokensOfUser(session.domainId, session.user.id);
  return rows.map(toApiToken);
}

/** The tokens of everybody in the admin's domain. */
export async function listDomainTokens(ctx: AppContext, session: SessionContext): Promise<ApiToken[]> {
  if (session.domainId === null) return [];
  const rows = await apiTokensRepo(ctx.db).listTokensOfDomain(session.domainId);
  return rows.map(toApiToken);
}

/**
 * Makes a token of the caller's: never from a token, never with an action the caller may not do
 * now (PERMISSION_DENIED), expiring in the future within API_TOKEN_MAX_DAYS. The secret is in this
 * answer only; the database keeps its SHA-256.
 */
export async function createToken(
  ctx: AppContext,
  session: SessionContext,
  request: CreateApiToken,
): Promise<CreatedApiToken> {
  assertNotApiToken(session, "make tokens");
  const now = ctx.now();
  const mayCarry = new Set<string>(apiTokenActionsFor(subjectOf(session)));
  const permissions = [...new Set(request.permissions)];
  const beyond = permissions.filter((action) => !mayCarry.has(action));
  if (beyond.length > 0) {
    throw new AppError("PERMISSION_DENIED", `A token cannot carry what you may not do: ${beyond.join(", ")}`);
  }
  if (
    request.expires_at <= now.getTime() ||
    request.expires_at > now.getTime() + API_TOKEN_MAX_DAYS * DAY_MS
  ) {
    throw new AppError(
      "INVALID_VALUE_TYPE",
      `A token expires in the future, within ${API_TOKEN_MAX_DAYS} days`,
    );
  }
  const repo = apiTokensRepo(ctx.db);
  if ((await repo.countLiveTokensOfUser(session.domainId, session.user.id, now)) >= API_TOKEN_MAX_PER_USER) {
    throw new AppError("BAD_REQUEST", `At most ${API_TOKEN_MAX_PER_USER} tokens may be live at once`);
  }
  const token = generateApiToken();
  const id = randomUUID();
  const allowedIps = [...new Set(request.allowed_ips ?? [])];
  const tagScope = request.tag_scope ?? [];
  await repo.insertToken(session.domainId, {
    id,
    userId: session.user.id,
    name: request.name,
    tokenHash: hashToken(token),
    permissions,
    allowedIps,
    tagScope,
    createTime: now,
    expiresAt: new Date(request.expires_at),
  });
  const item: ApiToken = {
    _id: id,
    name: request.name,
    user_id: session.user.id,
    username: session.user.username,
    permissions,
    allowed_ips: allowedIps,
    tag_scope: tagScope,
    create_time: now.getTime(),
    expires_at: request.expires_at,
    last_used_at: null,
    last_used_ip: null,
    revoked_at: null,
  };
  return { token, item };
}

/** Revokes one of the caller's own tokens (BAD_IDENT 404 when it is not theirs or already revoked). */
export async function revokeOwnToken(
  ctx: AppContext,
  session: SessionContext,
  tokenId: string,
): Promise<void> {
  assertNotApiToken(session, "revoke tokens");
  const hasRevoked = await apiTokensRepo(ctx.db).revokeToken(session.domainId, tokenId, {
    at: ctx.now(),
    by: session.user.id,
    userId: session.user.id,
  });
  if (!hasRevoked) throw new AppError("BAD_IDENT", "No such token", { status: 404 });
}

/** An admin revokes any token of the domain's people. */
export async function revokeDomainToken(
  ctx: AppContext,
  session: SessionContext,
  tokenId: string,
): Promise<void> {
  assertNotApiToken(session, "revoke tokens");
  const hasRevoked =
    session.domainId !== null &&
    (await apiTokensRepo(ctx.db).revokeToken(session.domainId, tokenId, {
      at: ctx.now(),
      by: session.user.id,
    }));
  if (!hasRevoked) throw new AppError("BAD_IDENT", "No such token", { status: 404 });
}
