import { type CommandsRequestSchema, CSV_EXPORT_CHUNK } from "@cellfleet/contract";
import type { z } from "zod";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { requireDeviceView } from "../devices/devices.service";
import { commandsRepo } from "./commands.repo";

/** Columns of commands.csv. */
export const COMMAND_CSV_COLUMNS = [
  "create_time",
  "type",
  "status",
  "author",
  "approver",
  "targets",
  "total",
  "counts",
  "args",
  "update_time",
] as const;

/** POST /api/commands/export: the list's commands for the same filters (limit and offset ignored). */
export async function* exportCommandsRows(
  ctx: AppContext,
  session: SessionContext,
  query: z.output<typeof CommandsRequestSchema>,
): AsyncGenerator<CsvCell[][]> {
  const { domainId, tagScope } = requireDeviceView(session);
  const repo = commandsRepo(ctx.db);
  const filter = { statuses: query.status, types: query.type, tagScope };
  const pages = keysetPages(
    (after: string | null, limit) => repo.findCommandsAfter(domainId, filter, after, limit),
    (row) => row.id,
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows.map((row) => [
      row.create_time.toISOString(),
      row.type,
      row.status,
      row.author_name,
      row.approver_name,
      JSON.stringify(row.targets),
      row.total,
      JSON.stringify(row.counts),
      JSON.stringify(row.args),
      row.update_time.toISOString(),
    ]);
  }
}
