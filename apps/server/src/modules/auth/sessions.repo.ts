import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB, NewSessionRow, SessionRow } from "../../platform/db/schema";

/** Why a session ended. */
export type SessionEndReason = "logout" | "expired" | "inactivity" | "user_removed";

/**
 * Sign-in sessions. A session is found by its token before anyone knows whose it is, so the
 * lookup spans domains; everything after goes by the session's own id.
 */
export function sessionsRepo(db: Kysely<DB>) {
  return {
    async insertSession(session: Omit<NewSessionRow, "id">): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto("sessions")
        .values({ ...session, id })
        .execute();
      return id;
    },

    async findSessionByTokenHashAcrossDomains(tokenHash: string): Promise<SessionRow | undefined> {
      return db.selectFrom("sessions").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
    },

    async touchSession(sessionId: string, at: Date): Promise<void> {
      await db.updateTable("sessions").set({ last_seen_at: at }).where("id", "=", sessionId).execute();
    },

    /** Ends a session that is still open; answers whether this call ended it. */
    async endSession(sessionId: string, at: Date, reason: SessionEndReason): Promise<boolean> {
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
