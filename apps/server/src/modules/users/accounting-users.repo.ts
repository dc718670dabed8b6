import type { Role } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { likePattern } from "../../platform/db/like";
import type { DB, UserRecord } from "../../platform/db/schema";

/** A user with its policy's name, as the accounting screens list it. */
export type AccountingUserRow = UserRecord & { policy_name: string | null };

/** What the users list may be narrowed by. */
export interface UserListFilter {
  search?: string;
  role?: Role;
}

/** The users of the accounting screens: lists, lookups by login or e-mail, removal. */
export function accountingUsersRepo(db: Kysely<DB>) {
  function selectUsers() {
    return db
      .selectFrom("users")
      .leftJoin("domains", "domains.id", "users.domain_id")
      .leftJoin("security_policies", "security_policies.id", "users.policy_id")
      .selectAll("users")
      .select([
        "domains.name as domain_name",
        "domains.policy_id as domain_policy_id",
        "security_policies.name as policy_name",
      ])
      .where("users.removed_at", "is", null);
  }

  function applyFilter(query: ReturnType<typeof selectUsers>, filter: UserListFilter) {
    let narrowed = query;
    if (filter.role !== undefined) narrowed = narrowed.where("users.role", "=", filter.role);
    const search = filter.search?.trim().toLowerCase();
    if (search) {
      const pattern = likePattern(search);
      narrowed = narrowed.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["users.username"]), "like", pattern),
          eb(eb.fn("lower", ["users.full_name"]), "like", pattern),
          eb(eb.fn("lower", [eb.fn.coalesce("users.email", eb.val(""))]), "like", pattern),
        ]),
      );
    }
    return narrowed.orderBy("users.username");
  }

  function strip(rows: (AccountingUserRow & { password_hash?: string })[]): AccountingUserRow[] {
    return rows.map(({ password_hash: _hash, ...row }) => row);
  }

  async function findOne(
    userId: string,
    domainId: string | null | undefined,
  ): Promise<AccountingUserRow | undefined> {
    let query = db
      .selectFrom("users")
      .leftJoin("domains", "domains.id", "users.domain_id")
      .leftJoin("security_policies", "security_policies.id", "users.policy_id")
      .selectAll("users")
      .select([
        "domains.name as domain_name",
        "domains.policy_id as domain_policy_id",
        "security_policies.name as policy_name",
      ])
      .where("users.id", "=", userId);
    if (domainId !== undefined) query = query.where("users.domain_id", domainOp(domainId), domainId);
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    const { password_hash: _hash, ...user } = row;
    return user;
  }

  return {
    /** The users of one domain (null: the superusers). */
    async listUsers(domainId: string | null, filter: UserListFilter): Promise<AccountingUserRow[]> {
      const query = selectUsers().where("users.domain_id", domainOp(domainId), domainId);
      return strip(await applyFilter(query, filter).execute());
    },

    /** The page after the username `after` of one domain's users (null: the superusers), by username. */
    async listUsersAfter(
      domainId: string | null,
      filter: UserListFilter,
      after: string | null,
      limit: number,
    ): Promise<AccountingUserRow[]> {
      let query = selectUsers().where("users.domain_id", domainOp(domainId), domainId);
      if (after !== null) query = query.where("users.username", ">", after);
      return strip(await applyFilter(query, filter).limit(limit).execute());
    },

    /** As listUsersAfter, over every domain, superusers included. */
    async listUsersAfterAcrossDomains(
      filter: UserListFilter,
      after: string | null,
      limit: number,
    ): Promise<AccountingUserRow[]> {
      const query = after === null ? selectUsers() : selectUsers().where("users.username", ">", after);
      return strip(await applyFilter(query, filter).limit(limit).execute());
    },

    /** Every user of every domain, superusers included (the superuser's users list). */
    async listUsersAcrossDomains(filter: UserListFilter): Promise<AccountingUserRow[]> {
      return strip(await applyFilter(selectUsers(), filter).execute());
    },

    /** One user with its policy's name, removed ones included (so they answer USER_REMOVED). */
    async findAccountingUser(
      domainId: string | null,
      userId: string,
    ): Promise<AccountingUserRow | undefined> {
      return findOne(userId, domainId);
    },

    /** One user of any domain (superusers manage every user). */
    async findAccountingUserAcrossDomains(userId: string): Promise<AccountingUserRow | undefined> {
      return findOne(userId, undefined);
    },

    /** Whether a username is taken anywhere (removed users keep theirs). */
    async isUsernameTakenAcrossDomains(username: string, exceptUserId?: string): Promise<boolean> {
      let query = db
        .selectFrom("users")
        .select("id")
        .where((eb) => eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()));
      if (exceptUserId) query = query.where("id", "<>", exceptUserId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /** Whether a live user anywhere has this e-mail address. */
    async isEmailTakenAcrossDomains(email: string, exceptUserId?: string): Promise<boolean> {
      let query = db
        .selectFrom("users")
        .select("id")
        .where("removed_at", "is", null)
        .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()));
      if (exceptUserId) query = query.where("id", "<>", exceptUserId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /** The live user a forgot-password request names, by username or e-mail, wherever it is. */
    async findUserByLoginAcrossDomains(login: string): Promise<UserRecord | undefined> {
      const lower = login.toLowerCase();
      const row = await db
        .selectFrom("users")
        .leftJoin("domains", "domains.id", "users.domain_id")
        .selectAll("users")
        .select(["domains.name as domain_name", "domains.policy_id as domain_policy_id"])
        .where("users.removed_at", "is", null)
        .where("users.is_demo", "=", false)
        .where((eb) =>
          eb.or([
            eb(eb.fn("lower", ["users.username"]), "=", lower),
            eb(eb.fn("lower", ["users.email"]), "=", lower),
          ]),
        )
        .orderBy("users.create_time")
        .executeTakeFirst();
      if (!row) return undefined;
      const { password_hash: _hash, ...user } = row;
      return user;
    },

    /** Marks a user removed; its row stays for the audit log. */
    async removeUser(domainId: string | null, userId: string, at: Date): Promise<void> {
      await db
        .updateTable("users")
        .set({ removed_at: at })
        .where("users.id", "=", userId)
        .where("users.domain_id", domainOp(domainId), domainId)
        .execute();
    },

    /** The ids of a user's open sessions, to end them when it is removed or blocked. */
    async listOpenSessionIds(domainId: string | null, userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select("sessions.id")
        .where("sessions.user_id", "=", userId)
        .where("users.domain_id", domainOp(domainId), domainId)
        .where("sessions.ended_at", "is", null)
        .execute();
      return rows.map((row) => row.id);
    },
  };
}
