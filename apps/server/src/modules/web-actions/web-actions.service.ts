import {
  WEB_ACTIONS_CSV_COLUMNS,
  type WebAction,
  type WebActionsExportRequest,
  type WebActionsRequest,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { toCsv } from "../../platform/http/csv";
import { type WebActionFilter, type WebActionRow, webActionsRepo } from "./web-actions.repo";

/** The archive holds at most this many entries. */
export const EXPORT_MAX_ROWS = 100_000;

function toWebAction(row: WebActionRow): WebAction {
  return {
    _id: String(row.id),
    author: row.author,
    author_id: row.author_id,
    domain_name: row.domain_name,
    action: row.action,
    status: row.status,
    create_time: row.create_time.getTime(),
    client_ip: row.client_ip,
    info: row.info ?? {},
  };
}

/** `[since, since + for)`, or the `last` ms before now; neither: no window. */
function toFilter(ctx: AppContext, request: WebActionsExportRequest): WebActionFilter {
  const filter: WebActionFilter = {
    authors: request.author,
    actions: request.action,
    statuses: request.status,
    search: request.search,
  };
  if (request.since !== undefined) {
    filter.from = new Date(request.since);
    if (request.for !== undefined) filter.until = new Date(request.since + request.for);
  } else if (request.last !== undefined) {
    filter.from = new Date(ctx.now().getTime() - request.last);
  }
  return filter;
}

async function list(
  ctx: AppContext,
  session: SessionContext,
  filter: WebActionFilter,
  page: { limit: number; offset: number },
) {
  const repo = webActionsRepo(ctx.db);
  // Superusers (no domain of their own) read every domain's log; admins only their own domain's.
  const rows =
    session.domainId === null
      ? await repo.listWebActionsAcrossDomains(filter, page)
      : await repo.listWebActions(session.domainId, filter, page);
  return rows.map(toWebAction);
}

/** POST /api/web_actions/. */
export async function listWebActions(
  ctx: AppContext,
  session: SessionContext,
  request: WebActionsRequest,
): Promise<WebAction[]> {
  return list(ctx, session, toFilter(ctx, request), { limit: request.limit, offset: request.offset });
}

/** POST /api/web_actions/export: the filtered log as CSV (RFC 4180, CRLF line ends). */
export async function exportWebActions(
  ctx: AppContext,
  session: SessionContext,
  request: WebActionsExportRequest,
): Promise<string> {
  const entries = await list(ctx, session, toFilter(ctx, request), { limit: EXPORT_MAX_ROWS, offset: 0 });
  // The author and the info are what people typed: the CSV module guards them against formulas.
  return toCsv(
    WEB_ACTIONS_CSV_COLUMNS,
    entries.map((entry) => [
      entry.author,
      entry.action,
      entry.status,
      new Date(entry.create_time).toISOString(),
      entry.client_ip ?? "",
      JSON.stringify(entry.info),
    ]),
  );
}
