import {
  LOG_PAGE_SIZE,
  type WebAction,
  WebActionsAnswerSchema,
  type WebActionsExportRequest,
  type WebActionsRequest,
} from "@cellfleet/contract";
import { infiniteQueryOptions, keepPreviousData } from "@tanstack/react-query";
import { downloadCsvExport } from "../../../app/api/csvExport";
import { apiRequest } from "../../../app/api/http";
import type { DateRange } from "../../../components/date-range/dateRange";
import { accountingKeys } from "../keys";

/** The filters of the logs screen: the calendar window, the search and the tag filters. */
export interface LogFilter {
  range: DateRange;
  search: string;
  author: string[];
  action: string[];
  status: string[];
}

/** The request body of a filter, without paging: the window as `since` and `for` (ms). */
export function logFilterBody(filter: LogFilter): WebActionsExportRequest {
  const body: WebActionsExportRequest = {};
  const { since, until } = filter.range;
  if (since !== null) body.since = since;
  if (until !== null) body.for = Math.max(0, until + 1 - (since ?? 0));
  if (filter.search) body.search = filter.search;
  if (filter.author.length) body.author = filter.author;
  if (filter.action.length) body.action = filter.action;
  const statuses = filter.status.filter(
    (status): status is "SUCCESS" | "FAILURE" => status === "SUCCESS" || status === "FAILURE",
  );
  if (statuses.length) body.status = statuses;
  return body;
}

/** POST /api/web_actions/: one page of log entries, newest first. */
export async function getWebActions(vars: WebActionsRequest, signal?: AbortSignal): Promise<WebAction[]> {
  const answer = await apiRequest("POST /api/web_actions/", {
    body: { ...vars },
    schema: WebActionsAnswerSchema,
    signal,
  });
  return answer.items;
}

/** The log in pages of 2048; a full page means more may follow ('load more'). */
export function logsQueryOptions(filter: LogFilter) {
  const body = logFilterBody(filter);
  return infiniteQueryOptions({
    queryKey: [...accountingKeys.logs(), body],
    queryFn: ({ pageParam, signal }) =>
      getWebActions({ ...body, limit: LOG_PAGE_SIZE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) =>
      last.length < LOG_PAGE_SIZE ? undefined : pages.length * LOG_PAGE_SIZE,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/web_actions/export: the archive of the filtered log as web_actions.csv. */
export function downloadWebActions(filter: LogFilter): Promise<void> {
  return downloadCsvExport("logs", logFilterBody(filter));
}
