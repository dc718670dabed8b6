import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import {
  ActiveFilterChips,
  activeFilters,
  clampPage,
  initialListState,
  ListCard,
  ListPaginator,
  type ListState,
  pageCount,
  removeFilter,
  SearchBox,
} from "../../../components/list-card";

/** One column of an accounting list. */
export interface ListColumn<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
}

interface AccountingListProps<T> {
  /** Storage prefix of the list card's remembered choices. */
  prefix: string;
  title: string;
  state: ListState;
  onStateChange: (patch: Partial<ListState> | ((previous: ListState) => ListState)) => void;
  query: UseQueryResult<T[]>;
  columns: ListColumn<T>[];
  rowKey: (row: T) => string;
  onRowClick?: (row: T) => void;
  onAdd?: () => void;
  emptyText: string;
  testId: string;
}

/**
 * An accounting list in the shared list card: server-side search, the remembered page and page
 * size, and the table in its pending, error, empty or data state.
 */
export function AccountingList<T>(props: AccountingListProps<T>) {
  const { t } = useTranslation();
  const { state, onStateChange, query } = props;
  const rows = query.data ?? [];
  const pages = pageCount(rows.length, state.pageSize);
  const page = clampPage(state.page, pages);
  const visible = rows.slice(page * state.pageSize, (page + 1) * state.pageSize);
  const filters = activeFilters(state);

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Stack data-testid="query-pending" sx={{ alignItems: "center", py: 6 }}>
        <CircularProgress aria-label={t("app.loading")} />
      </Stack>
    );
  } else if (query.isError) {
    body = (
      <Alert
        data-testid="query-error"
        severity="error"
        sx={{ m: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t("common.retry")}
          </Button>
        }
      >
        {apiErrorText(query.error)}
      </Alert>
    );
  } else if (rows.length === 0) {
    body = (
      <Typography data-testid="list-empty" color="text.secondary" sx={{ p: 3, textAlign: "center" }}>
        {props.emptyText}
      </Typography>
    );
  } else {
    body = (
      <TableContainer>
        <Table size="small" data-testid={props.testId}>
          <TableHead>
            <TableRow>
              {props.columns.map((column) => (
                <TableCell key={column.key} sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                  {column.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((row) => (
              <TableRow
                key={props.rowKey(row)}
                hover={Boolean(props.onRowClick)}
                onClick={props.onRowClick ? () => props.onRowClick?.(row) : undefined}
                sx={props.onRowClick ? { cursor: "pointer" } : undefined}
              >
                {props.columns.map((column) => (
                  <TableCell key={column.key}>{column.render(row)}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }

  return (
    <ListCard
      title={props.title}
      subtitle={query.data ? t("accounting.list.total", { count: rows.length }) : undefined}
      filters={
        <SearchBox
          prefix={props.prefix}
          value={state.search}
          onChange={(search) => onStateChange({ search, page: 0 })}
        />
      }
      activeFilters={
        <ActiveFilterChips
          filters={filters}
          labelOf={(filter) => filter.value}
          onRemove={(filter) => onStateChange((previous) => removeFilter(previous, filter))}
          onClear={() =>
            onStateChange((previous) => ({ ...initialListState(previous.sort), pageSize: previous.pageSize }))
          }
        />
      }
      onReload={() => void query.refetch()}
      onAdd={props.onAdd}
      footer={
        rows.length > 0 ? (
          <ListPaginator
            total={rows.length}
            page={page}
            pageSize={state.pageSize}
            onPageChange={(next) => onStateChange({ page: next })}
            onPageSizeChange={(pageSize) => onStateChange({ pageSize, page: 0 })}
          />
        ) : undefined
      }
    >
      {body}
    </ListCard>
  );
}

/** Stops a click inside a row (a link in a cell) from also opening the row. */
export function stopRowClick(event: { stopPropagation: () => void }): void {
  event.stopPropagation();
}
