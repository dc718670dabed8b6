import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import type { DB, NewUserRow, UserRecord, UserUpdate } from "../../platform/db/schema";

/** A user with the hash its password is checked against (sign-in and password change only). */
export type UserWithPasswordHash = UserRecord & { password_hash: string };

/** Users and their password history. Functions take the domain id first (null: superusers). */
export function usersRepo(db: Kysely<DB>) {
  function selectUsers() {
    return db
      .selectFrom("users")
      .leftJoin("domains", "domains.id", "users.domain_id")
      .select([
        "users.id",
        "users.domain_id",
        "users.username",
        "users.full_name",
        "users.role",
        "users.is_junior",
        "users.email",
        "users.phone",
        "users.plugins",
        "users.factory_password",
        "users.password_changed_at",
        "users.password_expire_date",
        "users.blocked",
        "users.is_demo",
        "users.policy_id",
        "users.last_login",
        "users.failed_attempts",
        "users.create_time",
        "users.blocked_until",
        "users.block_reason",
        "users.removed_at",
        "users.untrusted_blocked",
        "users.events_read_through",
        "users.has_second_factor",
        "users.tag_scope",
        "domains.name as domain_name",
        "domains.policy_id as domain_policy_id",
      ]);
  }

  return {
    /** Sign-in lookup: usernames are unique across all domains, compared case-insensitively. */
    async findUserWithPasswordHashByUsernameAcrossDomains(
      username: string,
    ): Promise<UserWithPasswordHash | undefined> {
      return selectUsers()
        .select("users.password_hash")
        .where((eb) => eb(eb.fn("lower", ["users.username"]), "=", username.toLowerCase()))
        .executeTakeFirst();
    },

    /** The read-only demo user, wherever its domain is. */
    async findDemoUserAcrossDomains(): Promise<UserRecord | undefined> {
      return selectUsers()
        .where("users.is_demo", "=", true)
        .orderBy("users.create_time")
        .limit(1)
        .executeTakeFirst();
    },

    /** Session lookup: a session knows its user's id but not yet its domain. */
    async findUserByIdAcrossDomains(userId: string): Promise<UserRecord | undefined> {
      return selectUsers().where("users.id", "=", userId).executeTakeFirst();
    },

    async findUser(domainId: string | null, userId: string): Promise<UserRecord | undefined> {
      return selectUsers()
        .where("users.id", "=", userId)
        .where("users.domain_id", domainOp(domainId), domainId)
        .executeTakeFirst();
    },

    async findUserWithPasswordHash(
      domainId: string | null,
      userId: string,
    ): Promise<UserWithPasswordHash | undefined> {
      return selectUsers()
        .select("users.password_hash")
        .where("users.id", "=", userId)
        .where("users.domain_id", domainOp(domainId), domainId)
        .executeTakeFirst();
    },

    async insertUser(domainId: string | null, user: Omit<NewUserRow, "id" | "domain_id">): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto("users")
        .values({ ...user, id, domain_id: domainId })
        .execute();
      return id;
    },

    async updateUser(domainId: string | null, userId: string, changes: UserUpdate): Promise<void> {
      await db
        .updateTable("users")
        .set(changes)
        .where("users.id", "=", userId)
        .where("users.domain_id", domainOp(domainId), domainId)
        .execute();
    },

    /** The newest `limit` password hashes the user has had, newest first. */
    async listRecentPasswordHashes(
      domainId: string | null,
      userId: string,
      limit: number,
    ): Promise<string[]> {
      if (limit <= 0) return [];
      const rows = await db
        .selectFrom("password_history")
        .innerJoin("users", "users.id", "password_history.user_id")
        .select("password_history.password_hash")
        .where("password_history.user_id", "=", userId)
        .where("users.domain_id", domainOp(domainId), domainId)
        .orderBy("password_history.create_time", "desc")
        .limit(limit)
        .execute();
      return rows.map((row) => row.password_hash);
    },

    async addPasswordHistory(
      domainId: string | null,
      userId: string,
      passwordHash: string,
      at: Date,
    ): Promise<void> {
      const owner = await db
        .selectFrom("users")
        .select("users.id")
        .where("users.id", "=", userId)
        .where("users.domain_id", domainOp(domainId), domainId)
        .executeTakeFirst();
      if (!owner) return;
      await db
        .insertInto("password_history")
        .values({ id: randomUUID(), user_id: userId, password_hash: passwordHash, create_time: at })
        .execute();
    },
  };
}

export type UsersRepo = ReturnType<typeof usersRepo>;
