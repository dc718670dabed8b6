import type { Kysely } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { type DB, toJsonb } from "../../platform/db/schema";

/** A token row with its person's username, as lists show it. */
export interface ApiTokenRow {
  id: string;
  domain_id: string | null;
  user_id: string;
  username: string;
  name: string;
  permissions: string[];
  allowed_ips: string[];
  tag_scope: string[];
  create_time: Date;
  expires_at: Date;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
}

/** A new token to store: only the hash of its secret. */
export interface NewApiToken {
  id: string;
  userId: string;
  name: string;
  tokenHash: string;
  permissions: string[];
  allowedIps: string[];
  tagScope: string[];
  createTime: Date;
  expiresAt: Date;
}

/** Personal API tokens (ADR 040). Functions take the domain id first (null: a superuser's tokens). */
export function apiTokensRepo(db: Kysely<DB>) {
  function selectTokens(domainId: string | null) {
    return db
      .selectFrom("api_tokens")
      .innerJoin("users", "users.id", "api_tokens.user_id")
      .select([
        "api_tokens.id",
        "api_tokens.domain_id",
        "api_tokens.user_id",
        "users.username",
        "api_tokens.name",
        "api_tokens.permissions",
        "api_tokens.allowed_ips",
        "api_tokens.tag_scope",
        "api_tokens.create_time",
        "api_tokens.expires_at",
        "api_tokens.last_used_at",
        "api_tokens.last_used_ip",
        "api_tokens.revoked_at",
      ])
      .where("api_tokens.domain_id", domainOp(domainId), domainId);
  }

  return {
    async insertToken(domainId: string | null, token: NewApiToken): Promise<void> {
      await db
        .insertInto("api_tokens")
        .values({
          id: token.id,
          domain_id: domainId,
          user_id: token.userId,
          name: token.name,
          token_hash: token.tokenHash,
          permissions: toJsonb(token.permissions),
          allowed_ips: toJsonb(token.allowedIps),
          tag_scope: toJsonb(token.tagScope),
          create_time: token.createTime,
          expires_at: token.expiresAt,
        })
        .execute();
    },

    /** A person's tokens, newest first (revoked ones too: the list says when). */
    async listTokensOfUser(domainId: string | null, userId: string): Promise<ApiTokenRow[]> {
      return selectTokens(domainId)
        .where("api_tokens.user_id", "=", userId)
        .orderBy("api_tokens.create_time", "desc")
        .orderBy("api_tokens.id")
        .execute();
    },

    /** Every token of a domain's people, newest first (what its admins see). */
    async listTokensOfDomain(domainId: string): Promise<ApiTokenRow[]> {
      return selectTokens(domainId)
        .orderBy("api_tokens.create_time", "desc")
        .orderBy("api_tokens.id")
        .execute();
    },

    /** How many of a person's tokens still work at `now`. */
    async countLiveTokensOfUser(domainId: string | null, userId: string, now: Date): Promise<number> {
      const row = await db
        .selectFrom("api_tokens")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("domain_id", domainOp(domainId), domainId)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Revokes a token of the domain (of one person when `userId` is given) that is not revoked yet;
     * answers whether this call revoked it.
     */
    async revokeToken(
      domainId: string | null,
      tokenId: string,
      revoke: { at: Date; by: string; userId?: string },
    ): Promise<boolean> {
      let query = db
        .updateTable("api_tokens")
        .set({ revoked_at: revoke.at, revoked_by: revoke.by })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", tokenId)
        .where("revoked_at", "is", null);
      if (revoke.userId !== undefined) query = query.where("user_id", "=", revoke.userId);
      const result = await query.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A token by the hash of its secret, before anyone knows whose it is. */
    async findTokenByHashAcrossDomains(tokenHash: string) {
      return db
        .selectFrom("api_tokens")
        .select([
          "id",
          "user_id",
          "name",
          "permissions",
          "allowed_ips",
          "tag_scope",
          "expires_at",
          "revoked_at",
          "last_used_at",
          "last_used_ip",
        ])
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
    },

    /** Notes a token's latest use and address (the resolver writes at most once a minute per address). */
    async touchTokenAcrossDomains(tokenId: string, at: Date, ip: string): Promise<void> {
      await db
        .updateTable("api_tokens")
        .set({ last_used_at: at, last_used_ip: ip })
        .where("id", "=", tokenId)
        .execute();
    },
  };
}
