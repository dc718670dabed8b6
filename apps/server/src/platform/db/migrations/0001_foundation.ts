import { type Kysely, sql } from "kysely";

// Migrations use an untyped Kysely: they describe the schema as it was then, not as schema.ts says today.

/** Domains, security policies, users, password history and sessions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("security_policies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("policy_level", "smallint", (c) => c.notNull().check(sql`policy_level between 0 and 2`))
    .addColumn("password_min_length", "integer", (c) => c.notNull())
    .addColumn("password_max_length", "integer", (c) => c.notNull())
    .addColumn("admin_min_length", "integer", (c) => c.notNull())
    .addColumn("max_repeated_symbols", "integer", (c) => c.notNull())
    .addColumn("repeated_combination_length", "integer", (c) => c.notNull())
    .addColumn("repeated_combination_count", "integer", (c) => c.notNull())
    .addColumn("expiration_days", "integer", (c) => c.notNull())
    .addColumn("admin_expiration_days", "integer", (c) => c.notNull())
    .addColumn("expiration_strategy", "text", (c) =>
      c.notNull().check(sql`expiration_strategy in ('block', 'send_new_password')`),
    )
    .addColumn("attempts_before_temporary_block", "integer", (c) => c.notNull())
    .addColumn("attempts_before_permanent_block", "integer", (c) => c.notNull())
    .addColumn("temporary_block_minutes", "integer", (c) => c.notNull())
    .addColumn("reauthentication", "boolean", (c) => c.notNull())
    .addColumn("inactivity_minutes", "integer", (c) => c.notNull())
    .addColumn("block_without_auth_days", "integer", (c) => c.notNull())
    .addColumn("password_history", "integer", (c) => c.notNull())
    .addColumn("forbidden_sequences", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("forbidden_phrases", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("is_default", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // At most one default policy, so two servers starting at once cannot both seed one.
  await db.schema
    .createIndex("security_policies_one_default")
    .on("security_policies")
    .column("is_default")
    .unique()
    .where(sql.ref("is_default"), "=", true)
    .execute();
  await db.schema
    .createIndex("security_policies_domain_id")
    .on("security_policies")
    .column("domain_id")
    .execute();

  await db.schema
    .createTable("domains")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("full_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("tin", "text")
    .addColumn("email", "text")
    .addColumn("phone", "text")
    .addColumn("manager", "text")
    .addColumn("policy_id", "text", (c) => c.references("security_policies.id").onDelete("set null"))
    .addColumn("device_limit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_demo", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_session", "timestamptz")
    .execute();
  await db.schema
    .alterTable("security_policies")
    .addForeignKeyConstraint("security_policies_domain_id_fkey", ["domain_id"], "domains", ["id"], (c) =>
      c.onDelete("cascade"),
    )
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("full_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("role", "smallint", (c) => c.notNull().check(sql`role between 1 and 4`))
    .addColumn("is_junior", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("email", "text")
    .addColumn("phone", "text")
    .addColumn("plugins", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("factory_password", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("password_changed_at", "timestamptz", (c) => c.notNull())
    .addColumn("password_expire_date", "timestamptz")
    .addColumn("blocked", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_demo", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("policy_id", "text", (c) => c.references("security_policies.id").onDelete("set null"))
    .addColumn("last_login", "timestamptz")
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // Superusers belong to no domain; everyone else belongs to exactly one.
    .addCheckConstraint("users_domain_matches_role", sql`(role = 1) = (domain_id is null)`)
    .execute();
  await db.schema
    .createIndex("users_username_lower")
    .on("users")
    .unique()
    .expression(sql`lower(username)`)
    .execute();
  await db.schema.createIndex("users_domain_id").on("users").column("domain_id").execute();

  await db.schema
    .createTable("password_history")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("password_history_user_time")
    .on("password_history")
    .columns(["user_id", "create_time desc"])
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addColumn("ended_at", "timestamptz")
    .addColumn("end_reason", "text")
    .addColumn("client_ip", "text")
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sessions").execute();
  await db.schema.dropTable("password_history").execute();
  await db.schema.dropTable("users").execute();
  await db.schema
    .alterTable("security_policies")
    .dropConstraint("security_policies_domain_id_fkey")
    .execute();
  await db.schema.dropTable("domains").execute();
  await db.schema.dropTable("security_policies").execute();
}
