import type { Health } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { readSchemaVersion } from "../../platform/db/migrate";
import { SERVER_VERSION } from "../../platform/version";

/** The server's version, the database schema's version and which engine holds the data. */
export async function readHealth(ctx: AppContext): Promise<Health> {
  return {
    status: "ok",
    version: SERVER_VERSION,
    schema_version: await readSchemaVersion(ctx.db),
    database: ctx.dbKind,
  };
}
