import type { AuditObjectType } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema";

// Where each kind of object keeps the name the log shows: table and column. A licence has none
// (its key is a secret), nor do entries on several objects.
const NAME_COLUMNS: Partial<Record<AuditObjectType, [keyof DB, string]>> = {
  user: ["users", "username"],
  device: ["devices", "ident"],
  domain: ["domains", "name"],
  settings: ["domains", "name"],
  policy: ["security_policies", "name"],
  job: ["jobs", "kind"],
  rule: ["notification_rules", "name"],
  transport: ["notification_transports", "name"],
  delivery: ["notification_deliveries", "title"],
  file: ["files", "filename"],
  command: ["commands", "type"],
  commandType: ["command_types", "type"],
  script: ["scripts", "name"],
  template: ["scripts", "name"],
  software: ["software_rules", "name"],
  rollout: ["firmware_rollouts", "version"],
  schedule: ["schedule_rules", "name"],
  zeroTouch: ["zero_touch_configs", "name"],
  adoption: ["zero_touch_adoptions", "ident"],
  apiToken: ["api_tokens", "name"],
};

/** Names of the objects audit entries touch. */
export function auditNamesRepo(db: Kysely<DB>) {
  return {
    /**
     * An object's name by its id, whatever its domain: the audit writer names the object of a call
     * that succeeded (and so was the caller's to touch), never of a refused one.
     */
    async findObjectNameAcrossDomains(type: AuditObjectType, id: string): Promise<string | null> {
      const place = NAME_COLUMNS[type];
      if (!place) return null;
      const [table, column] = place;
      const row = await sql<{
        name: string | null;
      }>`select ${sql.ref(column)}::text as name from ${sql.table(table)} where id::text = ${id} limit 1`.execute(
        db,
      );
      return row.rows[0]?.name ?? null;
    },
  };
}
