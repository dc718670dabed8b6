import { type Kysely, sql } from "kysely";

/**
 * Files (modules/files): the rows that name each stored blob (the id is its storage key), and the
 * uploads routers were told to make through a signed URL, so each arriving body is checked against
 * what its command expected. Neither table has a foreign key to devices: when a device is deleted its
 * files must be found again to remove their blobs (the `device.deleted` event), which a cascade
 * would make impossible. Domains are referenced without cascade for the same reason.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id"))
    .addColumn("file_type", "text", (c) =>
      c
        .notNull()
        .check(sql`file_type in ('file', 'package', 'firmware', 'bin', 'backup', 'journal', 'report')`),
    )
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("completed").check(sql`status in ('completed', 'failed')`),
    )
    // A user id, 'system' (files the server made; never deleted by people), or null for a router's upload.
    .addColumn("user_id", "text")
    .addColumn("device_id", "text")
    .addColumn("command_id", "text")
    .addColumn("execution_id", "text")
    // A backup sent again unchanged is noted here instead of stored twice.
    .addColumn("repeats", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("repeat_time", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .execute();
  // The common lists (POST /api/commonfiles) by type, newest first.
  await sql`create index files_common on files (domain_id, file_type, create_time desc)
    where device_id is null`.execute(db);
  // A router's files by type, newest first: its files table, retention, the dashboard facets.
  await sql`create index files_device on files (device_id, file_type, create_time desc)
    where device_id is not null`.execute(db);
  // Two common files of one type never share a name (case aside): FILE_EXISTS.
  await sql`create unique index files_common_name on files (domain_id, file_type, lower(filename))
    where device_id is null`.execute(db);

  await db.schema
    .createTable("file_transfers")
    // The storage key the upload goes to (and the id of the file row it becomes).
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id"))
    .addColumn("device_id", "text", (c) => c.notNull())
    .addColumn("file_type", "text", (c) =>
      c.notNull().check(sql`file_type in ('backup', 'journal', 'report')`),
    )
    .addColumn("command_id", "text", (c) => c.notNull())
    .addColumn("execution_id", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("max_bytes", "bigint", (c) => c.notNull())
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql`state in ('expected', 'receiving', 'completed', 'failed', 'expired')`),
    )
    .addColumn("error", "text")
    // The file the upload became: its own id, or an identical earlier backup's.
    .addColumn("file_id", "text")
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("finish_time", "timestamptz")
    .execute();
  // The sweep of uploads that never came.
  await sql`create index file_transfers_open on file_transfers (expires_at)
    where state in ('expected', 'receiving')`.execute(db);
  await db.schema
    .createIndex("file_transfers_device")
    .on("file_transfers")
    .columns(["domain_id", "device_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("file_transfers").execute();
  await db.schema.dropTable("files").execute();
}
