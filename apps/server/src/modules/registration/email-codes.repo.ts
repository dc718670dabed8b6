import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB, EmailCodesTable } from "../../platform/db/schema";

type Purpose = EmailCodesTable["purpose"];

/**
 * One-time codes sent by e-mail. They exist before any domain does (registration) or before anyone
 * knows the person's domain (password reset), so they are not domain-owned and every function here
 * says AcrossDomains.
 */
export function emailCodesRepo(db: Kysely<DB>) {
  return {
    /** Stores a code's hash for a purpose and an address (and the user it resets, if any). */
    async insertCodeAcrossDomains(code: {
      purpose: Purpose;
      email: string;
      userId: string | null;
      codeHash: string;
      expiresAt: Date;
      at: Date;
    }): Promise<void> {
      await db
        .insertInto("email_codes")
        .values({
          id: randomUUID(),
          purpose: code.purpose,
          email: code.email.toLowerCase(),
          user_id: code.userId,
          code_hash: code.codeHash,
          expires_at: code.expiresAt,
          create_time: code.at,
        })
        .execute();
    },

    /**
     * Marks an unused, unexpired code used and answers its row; undefined when there is none. The
     * update is the check, so two calls with one code cannot both succeed.
     */
    async consumeCodeAcrossDomains(purpose: Purpose, codeHash: string, at: Date, email?: string) {
      let query = db
        .updateTable("email_codes")
        .set({ used_at: at })
        .where("purpose", "=", purpose)
        .where("code_hash", "=", codeHash)
        .where("used_at", "is", null)
        .where("expires_at", ">", at);
      if (email !== undefined) query = query.where("email", "=", email.toLowerCase());
      return query.returning(["id", "email", "user_id"]).executeTakeFirst();
    },

    /** An unused, unexpired code, without using it up. */
    async findLiveCodeAcrossDomains(purpose: Purpose, codeHash: string, at: Date) {
      return db
        .selectFrom("email_codes")
        .select(["id", "email", "user_id"])
        .where("purpose", "=", purpose)
        .where("code_hash", "=", codeHash)
        .where("used_at", "is", null)
        .where("expires_at", ">", at)
        .executeTakeFirst();
    },
  };
}
