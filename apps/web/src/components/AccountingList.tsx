import Box from "@mui/material/Box";
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
import {
  ActiveFilterChips,
  activeFilters,
  type CsvExportSpec,
  clampPage,
  initialListState,
  ListCard,
  ListPaginator,
  type ListState,
  pageCount,
  removeFilter,
  SearchBox,
} from "./list-card";
import { QueryState } from "./QueryState";

/** One column of an accounting list. */
export interface ListColumn<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /**
   * A detail a phone has no room for: on a phone (below `sm`) the column is not shown, and its label
   * and value go under the row's first cell instead, so the table never scrolls sideways.
   */
  isWideOnly?: boolean;
}

/** A cell shown only from `sm` up, and what is shown only below it. */
const WIDE_CELL = { display: { xs: "none", sm: "table-cell" } } as const;
const PHONE_BLOCK = { display: { xs: "block", sm: "none" } } as const;

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
  /** The list's CSV export with its filters: the card's download button. */
  csvExport?: CsvExportSpec;
  /** The line under the title; the row count unless given. */
  subtitle?: ReactNode;
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

  const body = (
    <QueryState query={query} isEmpty={(data) => data.length === 0} emptyText={props.emptyText} isInset>
      {() => (
        <TableContainer>
          <Table size="small" data-testid={props.testId}>
            <TableHead>
              <TableRow>
                {props.columns.map((column) => (
                  <TableCell
                    key={column.key}
                    sx={{ fontWeight: 600, whiteSpace: "nowrap", ...(column.isWideOnly ? WIDE_CELL : {}) }}
                  >
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
                  {props.columns.map((column, index) => (
                    <TableCell key={column.key} sx={column.isWideOnly ? WIDE_CELL : undefined}>
                      {column.render(row)}
                      {index === 0 ? <PhoneDetails row={row} columns={props.columns} /> : null}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </QueryState>
  );

  return (
    <ListCard
      title={props.title}
      csvExport={props.csvExport}
      subtitle={
        props.subtitle ?? (query.data ? t("accounting.list.total", { count: rows.length }) : undefined)
      }
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

/** On a phone, the wide-only columns' labels and values under the row's first cell. */
function PhoneDetails<T>({ row, columns }: { row: T; columns: ListColumn<T>[] }) {
  const details = columns.filter((column) => column.isWideOnly);
  if (details.length === 0) return null;
  return (
    <Box sx={{ ...PHONE_BLOCK, mt: 0.5 }} data-testid="phone-details">
      {details.map((column) => (
        <Typography
          key={column.key}
          component="div"
          variant="caption"
          color="text.secondary"
          sx={{ overflowWrap: "anywhere" }}
        >
          {column.label}: {column.render(row)}
        </Typography>
      ))}
    </Box>
  );
}

/** Stops a click inside a row (a link in a cell) from also opening the row. */
export function stopRowClick(event: { stopPropagation: () => void }): void {
  event.stopPropagation();
}
