import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema";

/** A one-time install link as stored: its router and who made it. */
export interface InstallTokenRow {
  domain_id: string;
  device_id: string;
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/** The agent's one-time install links (0034_agent_install); the token is known by its SHA-256 only. */
export function installRepo(db: Kysely<DB>) {
  return {
    async insertToken(
      domainId: string,
      token: { hash: string; deviceId: string; userId: string; createdAt: Date; expiresAt: Date },
    ): Promise<void> {
      await db
        .insertInto("agent_install_tokens")
        .values({
          token_hash: token.hash,
          domain_id: domainId,
          device_id: token.deviceId,
          user_id: token.userId,
          created_at: token.createdAt,
          expires_at: token.expiresAt,
          used_at: null,
        })
        .execute();
    },

    /**
     * Marks a link used if it is unused and unexpired at `now`, in one statement, so two fetches of
     * it cannot both pass. Across domains: the router that fetches it names no domain, the token does.
     */
    async useTokenAcrossDomains(hash: string, now: Date): Promise<InstallTokenRow | undefined> {
      return db
        .updateTable("agent_install_tokens")
        .set({ used_at: now })
        .where("token_hash", "=", hash)
        .where("used_at", "is", null)
        .where("expires_at", ">", now)
        .returning(["domain_id", "device_id", "user_id", "expires_at", "used_at"])
        .executeTakeFirst();
    },

    /** A link whatever its state, to say why it was refused (across domains, as above). */
    async findTokenAcrossDomains(hash: string): Promise<InstallTokenRow | undefined> {
      return db
        .selectFrom("agent_install_tokens")
        .select(["domain_id", "device_id", "user_id", "expires_at", "used_at"])
        .where("token_hash", "=", hash)
        .executeTakeFirst();
    },

    /** What the script is filled with: the router's ident and key, and the name of who made the link. */
    async findInstallSubject(
      domainId: string,
      deviceId: string,
      userId: string,
    ): Promise<{ ident: string; aes_key: string | null; username: string } | undefined> {
      return db
        .selectFrom("devices")
        .innerJoin("users", (join) => join.on("users.id", "=", userId))
        .select(["devices.ident", "devices.aes_key", "users.username"])
        .where("devices.domain_id", "=", domainId)
        .where("devices.id", "=", deviceId)
        .executeTakeFirst();
    },

    /** Forgets links that expired before `before` (the hourly history job's sweep). */
    async deleteExpiredAcrossDomains(before: Date): Promise<number> {
      const result = await db
        .deleteFrom("agent_install_tokens")
        .where("expires_at", "<", before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
