import type { Device } from "@cellfleet/contract";
import Checkbox from "@mui/material/Checkbox";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import { useTranslation } from "react-i18next";
import type { ListSort } from "../../../components/list-card";
import { useNow } from "../../../components/useNow";
import { DeviceRow } from "./DeviceRow";
import { DeviceTableRoot } from "./deviceTableStyles";

const COLUMNS = [
  { id: "ident", sort: "ident" },
  { id: "description", sort: "description", isWideOnly: true },
  { id: "model", sort: "model", isWideOnly: true },
  { id: "firmware", sort: "firmware", isWideOnly: true },
  { id: "status", sort: null },
  { id: "signal", sort: "signal" },
  { id: "tags", sort: null },
  { id: "events", sort: "events" },
  { id: "time", sort: "time" },
] as const;

// On a phone the status and signal matter more than the description, model and firmware.
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

interface DeviceTableProps {
  rows: Device[];
  /** Never more rows than this are rendered, whatever arrived. */
  pageSize: number;
  sort: ListSort | null;
  onSort: (sort: ListSort) => void;
  /** With a selection, each row gets a checkbox (the bulk page). */
  selected?: ReadonlySet<string>;
  onSelect?: (ids: string[], isSelected: boolean) => void;
}

/** The device table of the dashboard: sortable columns, the ident links to the device's page. */
export function DeviceTable({ rows, pageSize, sort, onSort, selected, onSelect }: DeviceTableProps) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const visible = rows.slice(0, pageSize);
  const isSelectable = selected !== undefined && onSelect !== undefined;
  const selectedOnPage = isSelectable ? visible.filter((row) => selected.has(row._id)).length : 0;

  function handleSort(field: string) {
    const direction = sort?.field === field && sort.direction === "asc" ? "desc" : "asc";
    onSort({ field, direction });
  }

  return (
    <TableContainer>
      <DeviceTableRoot size="small" data-testid="device-table">
        <TableHead>
          <TableRow>
            {isSelectable ? (
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={visible.length > 0 && selectedOnPage === visible.length}
                  indeterminate={selectedOnPage > 0 && selectedOnPage < visible.length}
                  onChange={(event) =>
                    onSelect(
                      visible.map((row) => row._id),
                      event.target.checked,
                    )
                  }
                  slotProps={{ input: { "aria-label": t("fleet.multiple.selectPage") } }}
                />
              </TableCell>
            ) : null}
            {COLUMNS.map((column) => (
              <TableCell
                key={column.id}
                sx={{
                  px: 1,
                  "&:first-of-type": { pl: 2 },
                  "&:last-of-type": { pr: 2 },
                  ...("isWideOnly" in column ? WIDE_ONLY : {}),
                }}
              >
                {column.sort ? (
                  <TableSortLabel
                    active={sort?.field === column.sort}
                    direction={sort?.field === column.sort ? sort.direction : "asc"}
                    onClick={() => handleSort(column.sort)}
                  >
                    {t(`fleet.columns.${column.id}`)}
                  </TableSortLabel>
                ) : (
                  t(`fleet.columns.${column.id}`)
                )}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {visible.map((device) => (
            <DeviceRow
              key={device._id}
              device={device}
              now={now}
              t={t}
              language={i18n.language}
              isSelected={selected?.has(device._id) ?? false}
              onSelect={isSelectable ? onSelect : undefined}
            />
          ))}
        </TableBody>
      </DeviceTableRoot>
    </TableContainer>
  );
}
