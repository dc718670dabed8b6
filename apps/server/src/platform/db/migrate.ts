import { type Kysely, sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import * as m0001 from "./migrations/0001_foundation";
import * as m0002 from "./migrations/0002_fleet";
import * as m0003 from "./migrations/0003_gateway";
import * as m0004 from "./migrations/0004_devices";
import * as m0005 from "./migrations/0005_accounting";
import * as m0006 from "./migrations/0006_list_sorts";
import * as m0007 from "./migrations/0007_events_unread";
import * as m0008 from "./migrations/0008_platform_secrets";
import * as m0009 from "./migrations/0009_jobs";
import * as m0010 from "./migrations/0010_files";
import * as m0013 from "./migrations/0013_insight";
import * as m0014 from "./migrations/0014_notifications";
import * as m0015 from "./migrations/0015_actions";
import * as m0016 from "./migrations/0016_hardening";
import * as m0017 from "./migrations/0017_gateway_epochs";
import * as m0018 from "./migrations/0018_first_user";
import * as m0019 from "./migrations/0019_settings";
import * as m0020 from "./migrations/0020_scripts_templates";
import * as m0021 from "./migrations/0021_schedule_rules";
import * as m0022 from "./migrations/0022_software_rules";
import * as m0023 from "./migrations/0023_rollouts";
import * as m0024 from "./migrations/0024_licences";
import * as m0025 from "./migrations/0025_zero_touch";
import * as m0027 from "./migrations/0027_domain_time_zone";
import * as m0029 from "./migrations/0029_device_event_reads";
import * as m0030 from "./migrations/0030_rollout_link_stage";
import * as m0031 from "./migrations/0031_rollout_domains";
import * as m0032 from "./migrations/0032_device_connection";
import * as m0033 from "./migrations/0033_web_action_objects";
import * as m0034 from "./migrations/0034_agent_install";
import * as m0036 from "./migrations/0036_device_events_index_ids";
import * as m0037 from "./migrations/0037_tunnel_sessions";
import * as m0038 from "./migrations/0038_second_factor";
import * as m0039 from "./migrations/0039_api_tokens";
import * as m0040 from "./migrations/0040_tag_scope";
import * as m0041 from "./migrations/0041_device_position";
import * as m0044 from "./migrations/0044_tunnel_recordings";
import * as m0047 from "./migrations/0047_uptime_mail_rules";
import * as m0048 from "./migrations/0048_news_devices";

/**
 * Every migration, in order. Imported statically (not read from a folder) so the same list runs
 * under tsx, vitest and any bundler, on PGlite and on PostgreSQL alike.
 */
export const MIGRATIONS: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_fleet": m0002,
  "0003_gateway": m0003,
  "0004_devices": m0004,
  "0005_accounting": m0005,
  "0006_list_sorts": m0006,
  "0007_events_unread": m0007,
  "0008_platform_secrets": m0008,
  "0009_jobs": m0009,
  "0010_files": m0010,
  "0013_insight": m0013,
  "0014_notifications": m0014,
  "0015_actions": m0015,
  "0016_hardening": m0016,
  "0017_gateway_epochs": m0017,
  "0018_first_user": m0018,
  "0019_settings": m0019,
  "0020_scripts_templates": m0020,
  "0021_schedule_rules": m0021,
  "0022_software_rules": m0022,
  "0023_rollouts": m0023,
  "0024_licences": m0024,
  "0025_zero_touch": m0025,
  "0027_domain_time_zone": m0027,
  "0029_device_event_reads": m0029,
  "0030_rollout_link_stage": m0030,
  "0031_rollout_domains": m0031,
  "0032_device_connection": m0032,
  "0033_web_action_objects": m0033,
  "0034_agent_install": m0034,
  "0036_device_events_index_ids": m0036,
  "0037_tunnel_sessions": m0037,
  "0038_second_factor": m0038,
  "0039_api_tokens": m0039,
  "0040_tag_scope": m0040,
  "0041_device_position": m0041,
  "0044_tunnel_recordings": m0044,
  "0047_uptime_mail_rules": m0047,
  "0048_news_devices": m0048,
};

const staticProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Applies every pending migration; throws with the failing migration's name if one fails. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: staticProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    const name = failed ? ` ${failed.migrationName}` : "";
    throw new Error(`Database migration${name} failed: ${(error as Error).message ?? String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** The schema version: the name of the newest applied migration, or "none". */
export async function readSchemaVersion<T>(db: Kysely<T>): Promise<string> {
  const result = await sql<{
    name: string;
  }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return result.rows[0]?.name ?? "none";
}
