import { LOGS_LOAD_DELAY_MS, type WebAction } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useInfiniteQuery, useMutation } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateRangeFilter } from "../../../components/date-range/DateRangeFilter";
import { ALL_DATES, type DateRange } from "../../../components/date-range/dateRange";
import { formatDateTime } from "../../../components/formatDate";
import {
  ActiveFilterChips,
  activeFilters,
  clampPage,
  initialListState,
  ListCard,
  pageCount,
  removeFilter,
  SearchBox,
  toggleFacet,
  useListState,
} from "../../../components/list-card";
import { LoadMoreFooter } from "../../../components/list-card/LoadMoreFooter";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { entryText, kindText } from "./entryText";
import { LogInfo } from "./LogInfo";
import { downloadWebActions, type LogFilter, logsQueryOptions } from "./logs.queries";

const PREFIX = "accounting.logs";
// A phone (390 px) keeps what was done and its status; who and when go under the deed, the address
// and the details are for wider screens, so the table does not scroll sideways.
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;
const NOT_ON_PHONE = { display: { xs: "none", sm: "table-cell" } } as const;
const PHONE_ONLY = { display: { xs: "block", sm: "none" } } as const;
const COLUMN_SX = {
  author: NOT_ON_PHONE,
  action: {},
  status: {},
  create_time: NOT_ON_PHONE,
  client_ip: WIDE_ONLY,
  info: WIDE_ONLY,
} as const;
type TagFacet = "author" | "action" | "status";

/** /logs: the audit log of web actions with search, tag filters, calendar, 'load more' and the archive. */
export function LogsPage() {
  const { t } = useTranslation();
  const [state, update] = useListState(PREFIX);
  const [range, setRange] = useState<DateRange>(ALL_DATES);
  // Spec section 9: the log loads a second after the screen opens.
  const [isReady, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), LOGS_LOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const filter: LogFilter = {
    range,
    search: state.search,
    author: state.facets.author ?? [],
    action: state.facets.action ?? [],
    status: state.facets.status ?? [],
  };
  const query = useInfiniteQuery({ ...logsQueryOptions(filter), enabled: isReady });
  const download = useMutation({ mutationFn: () => downloadWebActions(filter) });
  const rows = useMemo(() => query.data?.pages.flat() ?? [], [query.data]);
  const pages = pageCount(rows.length, state.pageSize);
  const page = clampPage(state.page, pages);
  const visible = rows.slice(page * state.pageSize, (page + 1) * state.pageSize);
  const isLastPage = page === pages - 1;

  const tag = (facet: TagFacet, value: string, node: ReactNode) => {
    const isOn = (state.facets[facet] ?? []).includes(value);
    return (
      <Chip
        size="small"
        label={node}
        color={
          facet === "status" ? (value === "SUCCESS" ? "success" : "error") : isOn ? "primary" : "default"
        }
        variant={isOn ? "filled" : "outlined"}
        onClick={() => update((previous) => toggleFacet(previous, facet, value))}
        title={t("accounting.logs.toggleFilter")}
        sx={{
          height: "auto",
          minHeight: 24,
          maxWidth: "100%",
          borderRadius: 2,
          "& .MuiChip-label": { whiteSpace: "normal", py: 0.25 },
        }}
      />
    );
  };

  const body = (
    <QueryState
      query={query}
      isWaiting={!isReady}
      isEmpty={() => rows.length === 0}
      emptyText={t("accounting.logs.empty")}
      isInset
    >
      {() => (
        <TableContainer>
          <Table size="small" data-testid="logs-table">
            <TableHead>
              <TableRow>
                {(["author", "action", "status", "create_time", "client_ip", "info"] as const).map(
                  (column) => (
                    <TableCell
                      key={column}
                      sx={{ fontWeight: 600, whiteSpace: "nowrap", ...COLUMN_SX[column] }}
                    >
                      {t(`accounting.logs.columns.${column}`)}
                    </TableCell>
                  ),
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {visible.map((entry: WebAction) => (
                <TableRow key={entry._id} sx={{ verticalAlign: "top" }}>
                  <TableCell sx={COLUMN_SX.author}>
                    {tag("author", entry.author, entry.author)}
                    {entry.via_token !== null && (
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
                        {t("accounting.logs.viaToken", { name: entry.via_token })}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ minWidth: { xs: 0, sm: 200 } }}>
                    {tag("action", entry.kind ?? entry.action, entryText(t, entry))}
                    <Typography variant="caption" color="text.secondary" sx={{ ...PHONE_ONLY, mt: 0.5 }}>
                      {entry.via_token === null
                        ? entry.author
                        : `${entry.author} ${t("accounting.logs.viaToken", { name: entry.via_token })}`}{" "}
                      · {formatDateTime(entry.create_time)}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {tag("status", entry.status, t(`accounting.logs.status.${entry.status}`))}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap", ...COLUMN_SX.create_time }}>
                    {formatDateTime(entry.create_time)}
                  </TableCell>
                  <TableCell sx={COLUMN_SX.client_ip}>{entry.client_ip ?? "—"}</TableCell>
                  <TableCell sx={COLUMN_SX.info}>
                    <LogInfo info={entry.info} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </QueryState>
  );

  return (
    <>
      <PageTitle>{t("routes.logs")}</PageTitle>
      <ListCard
        title={t("accounting.logs.title")}
        subtitle={query.data ? t("accounting.list.total", { count: rows.length }) : undefined}
        filters={
          <>
            <SearchBox
              prefix={PREFIX}
              value={state.search}
              onChange={(search) => update({ search, page: 0 })}
            />
            <Box sx={{ width: "100%" }}>
              <DateRangeFilter
                value={range}
                onChange={(next) => {
                  setRange(next);
                  update({ page: 0 });
                }}
              />
            </Box>
          </>
        }
        activeFilters={
          <ActiveFilterChips
            filters={activeFilters(state)}
            labelOf={(item) =>
              item.kind === "facet"
                ? `${t(`accounting.logs.columns.${item.facet as TagFacet}`)}: ${item.facet === "action" ? kindText(t, item.value) : item.facet === "status" ? t(`accounting.logs.status.${item.value}`) : item.value}`
                : item.value
            }
            onRemove={(item) => update((previous) => removeFilter(previous, item))}
            onClear={() => update((previous) => ({ ...initialListState(), pageSize: previous.pageSize }))}
          />
        }
        onReload={() => void query.refetch()}
        onDownload={() => download.mutate()}
        isDownloading={download.isPending}
        footer={
          rows.length > 0 ? (
            <LoadMoreFooter
              total={rows.length}
              page={page}
              pageSize={state.pageSize}
              update={update}
              query={query}
              isLastPage={isLastPage}
              loadMoreText={t("accounting.logs.loadMore")}
              loadMoreTestId="logs-load-more"
            />
          ) : undefined
        }
      >
        {body}
      </ListCard>
    </>
  );
}
