import {
  CSV_EXPORT_CHUNK,
  type WebAction,
  type WebActionsExportRequest,
  type WebActionsRequest,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { type WebActionFilter, type WebActionRow, webActionsRepo } from "./web-actions.repo";

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
    kind: row.kind,
    object: row.object,
    via_token: row.via_token,
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

/** POST /api/web_actions/export: the filtered log, a keyset page of rows a yield. */
export async function* exportWebActionsRows(
  ctx: AppContext,
  session: SessionContext,
  request: WebActionsExportRequest,
): AsyncGenerator<CsvCell[][]> {
  const repo = webActionsRepo(ctx.db);
  const filter = toFilter(ctx, request);
  // Superusers (no domain of their own) read every domain's log; admins only their own domain's.
  const { domainId } = session;
  const pages = keysetPages(
    (after: string | null, limit) =>
      domainId === null
        ? repo.listWebActionsAfterAcrossDomains(filter, after, limit)
        : repo.listWebActionsAfter(domainId, filter, after, limit),
    (row) => String(row.id),
    CSV_EXPORT_CHUNK,
  );
  // The author and the info are what people typed: the CSV module guards them against formulas.
  for await (const rows of pages) {
    yield rows
      .map(toWebAction)
      .map((entry) => [
        entry.author,
        entry.via_token ?? "",
        entry.action,
        entry.kind ?? "",
        entry.object
          ? [entry.object.type, entry.object.name ?? entry.object.id ?? entry.object.count].join(" ")
          : "",
        entry.status,
        new Date(entry.create_time).toISOString(),
        entry.client_ip ?? "",
        JSON.stringify(entry.info),
      ]);
  }
}
