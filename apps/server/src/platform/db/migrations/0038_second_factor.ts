import { type Kysely, sql } from "kysely";

/**
 * A second factor (issue 30, ADR 039): a TOTP secret sealed with the platform's key, passkeys
 * (WebAuthn public keys), recovery codes by SHA-256, the open second steps of sign-ins and
 * enrolments, and a browser remembered past the second step on its device cookie (ADR 016).
 * The policy says who must enrol and how long a browser may be remembered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("security_policies")
    .addColumn("second_factor_required_for", "text", (c) => c.notNull().defaultTo("nobody"))
    .execute();
  await db.schema
    .alterTable("security_policies")
    .addColumn("second_factor_remember_days", "integer", (c) => c.notNull().defaultTo(30))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("has_second_factor", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable("sign_in_devices").addColumn("second_factor_until", "timestamptz").execute();

  await db.schema
    .createTable("user_totp")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "timestamptz")
    .addColumn("last_time_step", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("user_passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("transports", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("last_used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("user_passkeys_user").on("user_passkeys").column("user_id").execute();

  await db.schema
    .createTable("user_recovery_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("used_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("user_recovery_codes_user")
    .on("user_recovery_codes")
    .column("user_id")
    .execute();

  // purpose 'sign_in': the key is the SHA-256 of the challenge token the password step answered;
  // purpose 'register': one open passkey enrolment per user (the key names the user).
  await db.schema
    .createTable("second_factor_challenges")
    .addColumn("key_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("webauthn_challenge", "text")
    .addColumn("device_token_hash", "text")
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("second_factor_challenges_user")
    .on("second_factor_challenges")
    .column("user_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("second_factor_challenges").ifExists().execute();
  await db.schema.dropTable("user_recovery_codes").ifExists().execute();
  await db.schema.dropTable("user_passkeys").ifExists().execute();
  await db.schema.dropTable("user_totp").ifExists().execute();
  await db.schema.alterTable("sign_in_devices").dropColumn("second_factor_until").execute();
  await db.schema.alterTable("users").dropColumn("has_second_factor").execute();
  await db.schema.alterTable("security_policies").dropColumn("second_factor_remember_days").execute();
  await db.schema.alterTable("security_policies").dropColumn("second_factor_required_for").execute();
}
