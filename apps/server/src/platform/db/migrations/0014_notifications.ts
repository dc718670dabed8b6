import { type Kysely, sql } from "kysely";

/**
 * Notifications (modules/notifications, ADR 014): providers and rules, the incidents that keep alerts
 * quiet while links flap, the delivery log with each attempt, the rate slots that pace messages per
 * provider, and the in-app notifications. domain_id is null for what superusers own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("notification_transports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('telegram', 'webhook', 'smtp')`))
    // The settings that are not secret (chat id, host, format…).
    .addColumn("settings", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // The secret (bot token, webhook URL, SMTP password) sealed with the "notification-secret" key.
    .addColumn("sealed", "text")
    .addColumn("prefix", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("language", "text", (c) => c.notNull().defaultTo("ru"))
    // Failed deliveries in a row: a provider failing repeatedly shows as unhealthy.
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("last_failure_at", "timestamptz")
    .addColumn("last_success_at", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create unique index notification_transports_name
    on notification_transports (coalesce(domain_id, ''), lower(name))`.execute(db);

  await db.schema
    .createTable("notification_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("draft", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("monitor", "text", (c) => c.notNull())
    .addColumn("check_delay", "bigint")
    .addColumn("variables", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // No cascade: a provider in use cannot be deleted (TRANSPORT_IS_USED).
    .addColumn("transport_id", "text", (c) => c.references("notification_transports.id"))
    .addColumn("filter_tags", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("filter_levels", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("tolerance_minutes", "integer", (c) => c.notNull().defaultTo(0))
    // Timers: when the rule's timer looks next (check interval, notify in advance, firmware).
    .addColumn("timer_next_at", "timestamptz")
    .addColumn("author_id", "text")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create unique index notification_rules_name
    on notification_rules (coalesce(domain_id, ''), lower(name))`.execute(db);
  // What a monitor's signal looks up: the live rules of a domain watching it.
  await sql`create index notification_rules_live on notification_rules (monitor, domain_id)
    where active and not draft`.execute(db);

  await db.schema
    .createTable("notification_incidents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("rule_id", "text", (c) => c.notNull().references("notification_rules.id").onDelete("cascade"))
    // What the incident is about: a device, a user, a device and an event kind…
    .addColumn("subject_key", "text", (c) => c.notNull())
    .addColumn("style", "text", (c) => c.notNull().check(sql`style in ('state', 'occurrence')`))
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql`state in ('pending', 'open', 'closing', 'closed')`),
    )
    // The message lines (contract MessageLine) of its start and of its end.
    .addColumn("opened_line", "jsonb", (c) => c.notNull())
    .addColumn("resolved_line", "jsonb")
    .addColumn("started_at", "timestamptz", (c) => c.notNull())
    // pending: when it is announced; open occurrence: when it closes; closing: now.
    .addColumn("due_at", "timestamptz")
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addColumn("repeats", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("announced_at", "timestamptz")
    .addColumn("closed_at", "timestamptz")
    .execute();
  // One live incident per rule and subject: a repeat counts into it instead of opening another.
  await sql`create unique index notification_incidents_live on notification_incidents (rule_id, subject_key)
    where state in ('pending', 'open', 'closing')`.execute(db);
  await sql`create index notification_incidents_due on notification_incidents (rule_id, due_at)
    where state in ('pending', 'open', 'closing')`.execute(db);
  await sql`create index notification_incidents_closed on notification_incidents (closed_at)
    where state = 'closed'`.execute(db);

  await db.schema
    .createTable("notification_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("rule_id", "text", (c) => c.references("notification_rules.id").onDelete("set null"))
    .addColumn("transport_id", "text", (c) => c.references("notification_transports.id").onDelete("set null"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('incidents', 'digest')`))
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql`state in ('queued', 'sending', 'sent', 'retrying', 'failed')`),
    )
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("last_answer", "text")
    .addColumn("job_id", "text")
    .addColumn("sent_at", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("notification_deliveries_domain_time")
    .on("notification_deliveries")
    .columns(["domain_id", "create_time desc"])
    .execute();
  await db.schema
    .createIndex("notification_deliveries_transport")
    .on("notification_deliveries")
    .columns(["transport_id", "create_time desc"])
    .execute();

  await db.schema
    .createTable("notification_delivery_attempts")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("delivery_id", "text", (c) =>
      c.notNull().references("notification_deliveries.id").onDelete("cascade"),
    )
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("outcome", "text", (c) =>
      c.notNull().check(sql`outcome in ('sending', 'sent', 'failed', 'retry_after')`),
    )
    .addColumn("status_code", "integer")
    .addColumn("answer", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("start_time", "timestamptz", (c) => c.notNull())
    .addColumn("end_time", "timestamptz")
    .execute();
  await db.schema
    .createIndex("notification_delivery_attempts_delivery")
    .on("notification_delivery_attempts")
    .columns(["delivery_id", "attempt"])
    .execute();

  // Pacing per provider key (a bot, a chat, a webhook, an SMTP account): the next free send time.
  await db.schema
    .createTable("notification_rate_slots")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("next_at", "timestamptz", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("notification_news")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("rule_id", "text", (c) => c.references("notification_rules.id").onDelete("set null"))
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("notification_news_domain_time")
    .on("notification_news")
    .columns(["domain_id", "create_time desc"])
    .execute();
  await db.schema
    .createTable("notification_news_seen")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("seen_until", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "notification_news_seen",
    "notification_news",
    "notification_rate_slots",
    "notification_delivery_attempts",
    "notification_deliveries",
    "notification_incidents",
    "notification_rules",
    "notification_transports",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
