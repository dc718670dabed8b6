import { BlockList, isIPv4, isIPv6 } from "node:net";
import { API_TOKEN_PREFIX, type Role } from "@cellfleet/contract";
import type { ApiTokenResolver, SessionContext } from "../../platform/auth/session-guard";
import { hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { usersRepo } from "../users/users.repo";
import { isPasswordExpired } from "../users/users.rules";
import { apiTokensRepo } from "./api-tokens.repo";

/** last_used_at is written at most this often from one address, so calls do not all turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

/** The address as the allow-list compares it: an IPv4 address mapped into IPv6 reads as IPv4. */
function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped?.[1] ?? ip;
}

/** Whether `ip` lies in one of the networks (CIDR); an empty list allows every address. */
export function isAddressAllowed(networks: readonly string[], ip: string): boolean {
  if (networks.length === 0) return true;
  const address = plainAddress(ip);
  const type = isIPv4(address) ? "ipv4" : isIPv6(address) ? "ipv6" : null;
  if (type === null) return false;
  const list = new BlockList();
  for (const network of networks) {
    const [base = "", bits = ""] = network.split("/");
    list.addSubnet(base, Number(bits), isIPv4(base) ? "ipv4" : "ipv6");
  }
  return list.check(address, type);
}

/**
 * An `Authorization: Bearer` API token → its person's session, limited to the token's actions (ADR
 * 040). The checks, in order: unknown or revoked (TOKEN_INVALID), expired (TOKEN_HAS_EXPIRED), the
 * person removed or blocked or with an expired password (as for a session), then the address against
 * the allow-list (ACCESS_DENIED). A session token in the Bearer header is refused: it is not an API
 * token, and an API token is never taken in the Token header, so neither stands in for the other.
 */
export function createApiTokenResolver(ctx: AppContext): ApiTokenResolver {
  return async (token, clientIp): Promise<SessionContext> => {
    if (!token.startsWith(API_TOKEN_PREFIX))
      throw new AppError("TOKEN_INVALID", "The API token is not valid");
    const row = await apiTokensRepo(ctx.db).findTokenByHashAcrossDomains(hashToken(token));
    if (!row || row.revoked_at !== null) throw new AppError("TOKEN_INVALID", "The API token is not valid");
    const now = ctx.now();
    if (row.expires_at.getTime() <= now.getTime()) {
      throw new AppError("TOKEN_HAS_EXPIRED", "The API token has expired");
    }
    const user = await usersRepo(ctx.db).findUserByIdAcrossDomains(row.user_id);
    if (!user) throw new AppError("TOKEN_INVALID", "The API token is not valid");
    if (user.removed_at !== null) throw new AppError("USER_REMOVED", "The user was removed");
    if (user.blocked) throw new AppError("USER_BLOCKED", "The user is blocked");
    if (isPasswordExpired(user.password_expire_date, now)) {
      throw new AppError("PASSWORD_EXPIRED", "The password has expired");
    }
    const address = plainAddress(clientIp);
    if (!isAddressAllowed(row.allowed_ips, address)) {
      throw new AppError("ACCESS_DENIED", `This API token may not be used from ${address}`);
    }
    const lastUsed = row.last_used_at?.getTime() ?? 0;
    if (row.last_used_ip !== address || now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
      await apiTokensRepo(ctx.db).touchTokenAcrossDomains(row.id, now, address);
    }
    return {
      sessionId: `api-token:${row.id}`,
      user,
      domainId: user.domain_id,
      role: user.role as Role,
      isDemo: user.is_demo,
      token,
      // The second factor guards signing in; a token is made only from a session past it (ADR 040).
      isSecondFactorPending: false,
      apiToken: { id: row.id, name: row.name, permissions: row.permissions, tagScope: row.tag_scope },
    };
  };
}
