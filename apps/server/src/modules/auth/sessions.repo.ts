import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB, NewSessionRow, SessionRow } from "../../platform/db/schema";

/** Why a session ended. */
export type SessionEndReason = "logout" | "expired" | "inactivity" | "user_removed";

/**
 * Sign-in sessions. A session is found by its token before anyone knows whose it is, and its row
 * has no domain column (it belongs to a user, superusers included), so every function here says
 * AcrossDomains; after the lookup everything goes by the session's own id.
 */
export function sessionsRepo(db: Kysely<DB>) {
  return {
    /** Opens a session and answers its id. */
    async insertSessionAcrossDomains(session: Omit<NewSessionRow, "id">): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto("sessions")
        .values({ ...session, id })
        .execute();
      return id;
    },

    /** The session of a token's SHA-256, ended or not. */
    async findSessionByTokenHashAcrossDomains(tokenHash: string): Promise<SessionRow | undefined> {
      return db.selectFrom("sessions").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
    },

    /** Notes the session's latest activity (the inactivity timeout counts from it). */
    async touchSessionAcrossDomains(sessionId: string, at: Date): Promise<void> {
      await db.updateTable("sessions").set({ last_seen_at: at }).where("id", "=", sessionId).execute();
    },

    /** Ends a session that is still open; answers whether this call ended it. */
    async endSessionAcrossDomains(sessionId: string, at: Date, reason: SessionEndReason): Promise<boolean> {
      const result = await db
        .updateTable("sessions")
        .set({ ended_at: at, end_reason: reason })
        .where("id", "=", sessionId)
        .where("ended_at", "is", null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
