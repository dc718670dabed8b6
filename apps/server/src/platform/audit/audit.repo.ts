import type { AuditObject } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { type DB, toJsonb } from "../db/schema";

/** A log entry to write. */
export interface NewWebAction {
  domainId: string | null;
  authorId: string | null;
  author: string;
  action: string;
  status: "SUCCESS" | "FAILURE";
  createTime: Date;
  clientIp: string | null;
  info: Record<string, unknown>;
  /** What was done, in the words of AUDIT_ROUTES (`script.delete`); null for a call of no known kind. */
  kind: string | null;
  /** The object it was done to. */
  object: AuditObject | null;
  /** The API token the author acted through ("via token NAME"), or null. */
  viaToken: string | null;
}

/** Writes of the audit log (reads live in modules/web-actions). */
export function auditRepo(db: Kysely<DB>) {
  return {
    async insertWebAction(domainId: string | null, entry: Omit<NewWebAction, "domainId">): Promise<void> {
      await db
        .insertInto("web_actions")
        .values({
          domain_id: domainId,
          author_id: entry.authorId,
          author: entry.author,
          action: entry.action,
          status: entry.status,
          create_time: entry.createTime,
          client_ip: entry.clientIp,
          info: toJsonb(entry.info),
          kind: entry.kind,
          object: entry.object === null ? null : toJsonb(entry.object),
          via_token: entry.viaToken,
        })
        .execute();
    },

    /** Who signed in (or tried to) under a username, for entries of calls made without a session. */
    async findAuthorByUsernameAcrossDomains(
      username: string,
    ): Promise<{ id: string; domain_id: string | null } | undefined> {
      return db
        .selectFrom("users")
        .select(["id", "domain_id"])
        .where((eb) => eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()))
        .executeTakeFirst();
    },
  };
}
