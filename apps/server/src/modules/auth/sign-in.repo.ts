import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { DB } from "../../platform/db/schema";

/** A browser's device cookie row (ADR 016). */
export interface SignInDeviceRow {
  token_hash: string;
  user_id: string;
  failed_attempts: number;
  blocked_until: Date | null;
  blocked: boolean;
  expires_at: Date;
  /** The browser skips the second step until then (ADR 039). */
  second_factor_until: Date | null;
}

/**
 * Device cookies and failures under unknown usernames. Sign-in runs before anyone knows the domain
 * (and superusers have none): a cookie's functions say AcrossDomains (rows go by cookie hash or
 * user id); an unknown username has no user, so no domain, and its functions are installation-wide.
 */
export function signInRepo(db: Kysely<DB>) {
  return {
    async findDeviceAcrossDomains(tokenHash: string): Promise<SignInDeviceRow | undefined> {
      return db
        .selectFrom("sign_in_devices")
        .select([
          "token_hash",
          "user_id",
          "failed_attempts",
          "blocked_until",
          "blocked",
          "expires_at",
          "second_factor_until",
        ])
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
    },

    async insertDeviceAcrossDomains(row: {
      token_hash: string;
      user_id: string;
      create_time: Date;
      expires_at: Date;
    }): Promise<void> {
      await db.insertInto("sign_in_devices").values(row).execute();
    },

    async updateDeviceAcrossDomains(
      tokenHash: string,
      changes: { failed_attempts?: number; blocked_until?: Date | null; blocked?: boolean },
    ): Promise<void> {
      await db.updateTable("sign_in_devices").set(changes).where("token_hash", "=", tokenHash).execute();
    },

    /** Lifts every browser's block of a user (an administrator's unblock). */
    async resetDevicesOfUserAcrossDomains(userId: string): Promise<void> {
      await db
        .updateTable("sign_in_devices")
        .set({ failed_attempts: 0, blocked_until: null, blocked: false })
        .where("user_id", "=", userId)
        .execute();
    },

    async findUnknown(
      usernameHash: string,
    ): Promise<{ failed_attempts: number; blocked_until: Date | null } | undefined> {
      return db
        .selectFrom("sign_in_unknown")
        .select(["failed_attempts", "blocked_until"])
        .where("username_hash", "=", usernameHash)
        .executeTakeFirst();
    },

    /** Counts one more failure under an unknown username (rows idle for a day are dropped); answers the count. */
    async countUnknownFailure(usernameHash: string, now: Date): Promise<number> {
      await db
        .deleteFrom("sign_in_unknown")
        .where("update_time", "<", new Date(now.getTime() - 24 * 60 * 60 * 1000))
        .execute();
      const row = await db
        .insertInto("sign_in_unknown")
        .values({ username_hash: usernameHash, failed_attempts: 1, update_time: now })
        .onConflict((oc) =>
          oc.column("username_hash").doUpdateSet({
            failed_attempts: sql<number>`sign_in_unknown.failed_attempts + 1`,
            update_time: now,
          }),
        )
        .returning("failed_attempts")
        .executeTakeFirstOrThrow();
      return row.failed_attempts;
    },

    async blockUnknown(usernameHash: string, until: Date): Promise<void> {
      await db
        .updateTable("sign_in_unknown")
        .set({ blocked_until: until })
        .where("username_hash", "=", usernameHash)
        .execute();
    },
  };
}
