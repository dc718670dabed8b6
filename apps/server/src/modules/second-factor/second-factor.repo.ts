import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { type DB, toJsonb } from "../../platform/db/schema";

/** A passkey as the repo answers it. */
export interface PasskeyRow {
  id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string[];
  name: string;
  create_time: Date;
  last_used_at: Date | null;
}

/** An open second step. */
export interface ChallengeRow {
  key_hash: string;
  user_id: string;
  purpose: "sign_in" | "register";
  webauthn_challenge: string | null;
  device_token_hash: string | null;
  failed_attempts: number;
  expires_at: Date;
}

/**
 * A person's second factors (ADR 039). Every function takes the person's domain first and reaches
 * the factor rows through `users` filtered by it (null: a superuser). The sign-in step runs before
 * anyone knows the domain: its functions say AcrossDomains and go by the challenge's hash.
 */
export function secondFactorRepo(db: Kysely<DB>) {
  /** The ids of the domain's user `userId` (none when it is another domain's). */
  const ownUser = (domainId: string | null, userId: string) =>
    db
      .selectFrom("users")
      .select("id")
      .where("id", "=", userId)
      .where("domain_id", domainOp(domainId), domainId);

  return {
    async findTotp(
      domainId: string | null,
      userId: string,
    ): Promise<{ secret_sealed: string; confirmed_at: Date | null; last_time_step: number } | undefined> {
      const row = await db
        .selectFrom("user_totp")
        .select(["secret_sealed", "confirmed_at", "last_time_step"])
        .where("user_id", "in", ownUser(domainId, userId))
        .executeTakeFirst();
      return row && { ...row, last_time_step: Number(row.last_time_step) };
    },

    /** A new secret to confirm: replaces an unconfirmed one, never a confirmed one. */
    async saveUnconfirmedTotp(domainId: string | null, userId: string, secretSealed: string, at: Date) {
      await db
        .deleteFrom("user_totp")
        .where("user_id", "in", ownUser(domainId, userId))
        .where("confirmed_at", "is", null)
        .execute();
      const owner = await ownUser(domainId, userId).executeTakeFirst();
      if (!owner) return;
      await db
        .insertInto("user_totp")
        .values({ user_id: owner.id, secret_sealed: secretSealed, create_time: at })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute();
    },

    /**
     * Takes the code of `timeStep`: only when no code of that step or a later one was taken (two
     * calls racing with one code: one wins). Confirms the secret on its first code.
     */
    async takeTotpStep(
      domainId: string | null,
      userId: string,
      timeStep: number,
      at: Date,
    ): Promise<boolean> {
      const result = await db
        .updateTable("user_totp")
        .set({
          last_time_step: timeStep,
          confirmed_at: sql<Date>`coalesce(confirmed_at, ${at})`,
        })
        .where("user_id", "in", ownUser(domainId, userId))
        .where("last_time_step", "<", timeStep)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async deleteTotp(domainId: string | null, userId: string): Promise<void> {
      await db.deleteFrom("user_totp").where("user_id", "in", ownUser(domainId, userId)).execute();
    },

    async listPasskeys(domainId: string | null, userId: string): Promise<PasskeyRow[]> {
      const rows = await db
        .selectFrom("user_passkeys")
        .select([
          "id",
          "credential_id",
          "public_key",
          "counter",
          "transports",
          "name",
          "create_time",
          "last_used_at",
        ])
        .where("user_id", "in", ownUser(domainId, userId))
        .orderBy("create_time")
        .execute();
      return rows.map((row) => ({ ...row, counter: Number(row.counter) }));
    },

    async insertPasskey(
      domainId: string | null,
      userId: string,
      passkey: Pick<PasskeyRow, "credential_id" | "public_key" | "counter" | "transports" | "name">,
      at: Date,
    ): Promise<string> {
      const owner = await ownUser(domainId, userId).executeTakeFirst();
      if (!owner) throw new Error("No such user in the domain");
      const id = randomUUID();
      await db
        .insertInto("user_passkeys")
        .values({
          id,
          user_id: owner.id,
          ...passkey,
          transports: toJsonb(passkey.transports),
          create_time: at,
        })
        .execute();
      return id;
    },

    /** Records a passkey's use: its new signature counter. */
    async touchPasskey(domainId: string | null, userId: string, id: string, counter: number, at: Date) {
      await db
        .updateTable("user_passkeys")
        .set({ counter, last_used_at: at })
        .where("id", "=", id)
        .where("user_id", "in", ownUser(domainId, userId))
        .execute();
    },

    async deletePasskey(domainId: string | null, userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("user_passkeys")
        .where("id", "=", id)
        .where("user_id", "in", ownUser(domainId, userId))
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Replaces the person's recovery codes with these hashes. */
    async replaceRecoveryCodes(domainId: string | null, userId: string, hashes: string[]): Promise<void> {
      await db.deleteFrom("user_recovery_codes").where("user_id", "in", ownUser(domainId, userId)).execute();
      if (hashes.length === 0) return;
      const owner = await ownUser(domainId, userId).executeTakeFirst();
      if (!owner) return;
      await db
        .insertInto("user_recovery_codes")
        .values(hashes.map((code_hash) => ({ code_hash, user_id: owner.id })))
        .execute();
    },

    async countRecoveryCodesLeft(domainId: string | null, userId: string): Promise<number> {
      const row = await db
        .selectFrom("user_recovery_codes")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("user_id", "in", ownUser(domainId, userId))
        .where("used_at", "is", null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Uses a recovery code up: one conditional update, so two calls cannot both use it. */
    async useRecoveryCode(domainId: string | null, userId: string, hash: string, at: Date): Promise<boolean> {
      const result = await db
        .updateTable("user_recovery_codes")
        .set({ used_at: at })
        .where("code_hash", "=", hash)
        .where("user_id", "in", ownUser(domainId, userId))
        .where("used_at", "is", null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Sets users.has_second_factor from what is enrolled now; answers it. */
    async refreshHasSecondFactor(domainId: string | null, userId: string): Promise<boolean> {
      const totp = await db
        .selectFrom("user_totp")
        .select("user_id")
        .where("user_id", "in", ownUser(domainId, userId))
        .where("confirmed_at", "is not", null)
        .executeTakeFirst();
      const passkey = await db
        .selectFrom("user_passkeys")
        .select("id")
        .where("user_id", "in", ownUser(domainId, userId))
        .limit(1)
        .executeTakeFirst();
      const row = await db
        .updateTable("users")
        .set({ has_second_factor: totp !== undefined || passkey !== undefined })
        .where("id", "=", userId)
        .where("domain_id", domainOp(domainId), domainId)
        .returning("has_second_factor")
        .executeTakeFirst();
      return row?.has_second_factor ?? false;
    },

    /** Forgets every factor of a person (an administrator's reset) and every remembered browser. */
    async removeAllFactors(domainId: string | null, userId: string): Promise<void> {
      await db.deleteFrom("user_totp").where("user_id", "in", ownUser(domainId, userId)).execute();
      await db.deleteFrom("user_passkeys").where("user_id", "in", ownUser(domainId, userId)).execute();
      await db.deleteFrom("user_recovery_codes").where("user_id", "in", ownUser(domainId, userId)).execute();
      await db
        .deleteFrom("second_factor_challenges")
        .where("user_id", "in", ownUser(domainId, userId))
        .execute();
      await db
        .updateTable("sign_in_devices")
        .set({ second_factor_until: null })
        .where("user_id", "in", ownUser(domainId, userId))
        .execute();
      await db
        .updateTable("users")
        .set({ has_second_factor: false })
        .where("id", "=", userId)
        .where("domain_id", domainOp(domainId), domainId)
        .execute();
    },

    /** Opens a challenge (a sign-in's second step, or a passkey enrolment, which replaces the last). */
    async insertChallengeAcrossDomains(row: Omit<ChallengeRow, "failed_attempts">, now: Date): Promise<void> {
      await db.deleteFrom("second_factor_challenges").where("expires_at", "<", now).execute();
      await db
        .insertInto("second_factor_challenges")
        .values(row)
        .onConflict((oc) =>
          oc.column("key_hash").doUpdateSet({
            webauthn_challenge: row.webauthn_challenge,
            expires_at: row.expires_at,
            failed_attempts: 0,
          }),
        )
        .execute();
    },

    async findChallengeAcrossDomains(keyHash: string): Promise<ChallengeRow | undefined> {
      return db
        .selectFrom("second_factor_challenges")
        .selectAll()
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
    },

    async updateChallengeAcrossDomains(
      keyHash: string,
      changes: { webauthn_challenge?: string | null; failed_attempts?: number },
    ): Promise<void> {
      await db.updateTable("second_factor_challenges").set(changes).where("key_hash", "=", keyHash).execute();
    },

    /** Ends a challenge; answers whether it was still open (so one challenge signs in once). */
    async deleteChallengeAcrossDomains(keyHash: string): Promise<boolean> {
      const result = await db
        .deleteFrom("second_factor_challenges")
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Lets a browser skip the second step until `until` (its device cookie's row). */
    async rememberBrowserAcrossDomains(deviceTokenHash: string, until: Date): Promise<void> {
      await db
        .updateTable("sign_in_devices")
        .set({ second_factor_until: until })
        .where("token_hash", "=", deviceTokenHash)
        .execute();
    },
  };
}
