import { type Kysely, sql } from "kysely";

/**
 * Device insight (issue 18, ADR 013): radio samples per modem and their hourly rollups, outages and
 * modem changes drawn on the charts, data usage per SIM by ICCID and day, data plans of SIMs and
 * tags, the rollup's progress, and the last refused connection per ident.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per modem per modems report: narrow on purpose (no domain id, no JSON), since a router
  // reporting every minute writes 43,200 of them a month. Read by device and time only. No foreign
  // key: its check locks the device row once per inserted sample, which tripled the cost of a batch's
  // samples (bench/README.md, Ingest); the trigger below deletes a deleted device's samples instead.
  await db.schema
    .createTable("signal_samples")
    .addColumn("device_id", "text", (c) => c.notNull())
    .addColumn("modem", "text", (c) => c.notNull())
    .addColumn("time", "timestamptz", (c) => c.notNull())
    .addColumn("rsrp", "real")
    .addColumn("rsrq", "real")
    .addColumn("sinr", "real")
    .addColumn("rssi", "real")
    .addColumn("csq", "smallint")
    .execute();
  // Covering: a router's rows lie in index order even though the heap interleaves every router by
  // time, so a range is an index-only scan of a few hundred pages instead of one heap page a sample
  // (bench/README.md, History: 30 days raw went from about 1 s to tens of ms).
  await sql`create index signal_samples_device_time on signal_samples (device_id, time)
    include (modem, rsrp, rsrq, sinr, rssi, csq)`.execute(db);
  // Index-only scans need the visibility map: vacuum this append-mostly table after 2 % new rows
  // rather than the default 20 %, so the recent days are covered too.
  await sql`alter table signal_samples set (autovacuum_vacuum_insert_scale_factor = 0.02)`.execute(db);

  await sql`create function delete_device_samples() returns trigger language plpgsql as $$
    begin
      delete from signal_samples s using gone g where s.device_id = g.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger devices_delete_samples after delete on devices
    referencing old table as gone for each statement execute function delete_device_samples()`.execute(db);

  // min, max, sum and count per metric and hour: any coarser bucket combines them exactly.
  let rollups = db.schema
    .createTable("signal_rollups")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("modem", "text", (c) => c.notNull())
    .addColumn("hour", "timestamptz", (c) => c.notNull());
  for (const metric of ["rsrp", "rsrq", "sinr", "rssi", "csq"]) {
    rollups = rollups
      .addColumn(`${metric}_min`, "real")
      .addColumn(`${metric}_max`, "real")
      .addColumn(`${metric}_sum`, "double precision")
      .addColumn(`${metric}_n`, "integer", (c) => c.notNull().defaultTo(0));
  }
  await rollups.addPrimaryKeyConstraint("signal_rollups_pk", ["device_id", "hour", "modem"]).execute();

  // Hours whose samples came after the hour was rolled up (a router's queue sent after an outage):
  // the rollup computes them again.
  await db.schema
    .createTable("signal_rollup_dirty")
    .addColumn("device_id", "text", (c) => c.notNull())
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("signal_rollup_dirty_pk", ["device_id", "hour"])
    .execute();

  // Progress marks of the history jobs (the hour up to which samples are rolled up).
  await db.schema
    .createTable("history_marks")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("device_outages")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("started", "timestamptz", (c) => c.notNull())
    .addColumn("ended", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("device_outages_device_ended")
    .on("device_outages")
    .columns(["device_id", "ended"])
    .execute();

  await db.schema
    .createTable("modem_changes")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("time", "timestamptz", (c) => c.notNull())
    .addColumn("modem", "text", (c) => c.notNull())
    .addColumn("changes", "jsonb", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("modem_changes_device_time")
    .on("modem_changes")
    .columns(["device_id", "time"])
    .execute();

  // Bytes per SIM (ICCID), UTC day and router: a SIM moved keeps its history under its ICCID, and
  // each router still knows it held it. `seen` is the last report that added to the row.
  await db.schema
    .createTable("sim_usage")
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("iccid", "text", (c) => c.notNull())
    .addColumn("day", "date", (c) => c.notNull())
    // A router deleted takes the days its SIMs spent in it along.
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("modem", "text", (c) => c.notNull())
    .addColumn("slot", "smallint", (c) => c.notNull())
    .addColumn("rx", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("tx", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("seen", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("sim_usage_pk", ["domain_id", "iccid", "day", "device_id"])
    .execute();
  // Each row is rewritten at every report of its day: room in the page keeps those updates HOT.
  await sql`alter table sim_usage set (fillfactor = 70)`.execute(db);
  await db.schema.createIndex("sim_usage_device_day").on("sim_usage").columns(["device_id", "day"]).execute();

  // A SIM's own plan, and which threshold of which period has raised its event already.
  await db.schema
    .createTable("sim_cards")
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("iccid", "text", (c) => c.notNull())
    .addColumn("plan_bytes", "bigint")
    .addColumn("reset_day", "smallint")
    .addColumn("alerted_period", "date")
    .addColumn("alerted_percent", "smallint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("sim_cards_pk", ["domain_id", "iccid"])
    .execute();

  await db.schema
    .createTable("tag_plans")
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("tag", "text", (c) => c.notNull())
    .addColumn("plan_bytes", "bigint", (c) => c.notNull())
    .addColumn("reset_day", "smallint", (c) => c.notNull())
    .addPrimaryKeyConstraint("tag_plans_pk", ["domain_id", "tag"])
    .execute();

  // The last refused connection per ident (idents are global, like MQTT client ids; an unknown one
  // has no device yet). The offered password is never stored.
  await db.schema
    .createTable("gateway_refusals")
    .addColumn("ident", "text", (c) => c.primaryKey())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("time", "timestamptz", (c) => c.notNull())
    .addColumn("address", "text")
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex("gateway_refusals_time").on("gateway_refusals").column("time").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists devices_delete_samples on devices`.execute(db);
  await sql`drop function if exists delete_device_samples()`.execute(db);
  for (const table of [
    "gateway_refusals",
    "tag_plans",
    "sim_cards",
    "sim_usage",
    "modem_changes",
    "device_outages",
    "history_marks",
    "signal_rollup_dirty",
    "signal_rollups",
    "signal_samples",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
