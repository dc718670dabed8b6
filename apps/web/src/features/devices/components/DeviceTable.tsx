import type { Device } from "@cellfleet/contract";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import type { ListSort } from "../../../components/list-card";
import { RelativeTime, SignalLabel, StatusChip } from "./DeviceLabels";
import { useNow } from "./useNow";

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

interface DeviceRowProps {
  device: Device;
  now: number;
  isSelected: boolean;
  onSelect?: (ids: string[], isSelected: boolean) => void;
}

// Memoised: a live update replaces one row object, so only that row renders again (patchDevicePage
// keeps the others' identity), and typing in the search box never re-renders 100 rows.
const DeviceRow = memo(function DeviceRow({ device, now, isSelected, onSelect }: DeviceRowProps) {
  return (
    <TableRow hover data-testid="device-row" data-ident={device.ident}>
      {onSelect ? (
        <TableCell padding="checkbox">
          <Checkbox
            size="small"
            checked={isSelected}
            onChange={(event) => onSelect([device._id], event.target.checked)}
            slotProps={{ input: { "aria-label": device.ident } }}
          />
        </TableCell>
      ) : null}
      <TableCell>
        <Link component={RouterLink} to={`/device/${device._id}`} sx={{ fontWeight: 600 }}>
          {device.ident}
        </Link>
      </TableCell>
      <TableCell
        sx={{
          maxWidth: 220,
          overflow: "hidden",
          textOverflow: "ellipsis",
          whiteSpace: "nowrap",
          ...WIDE_ONLY,
        }}
      >
        {device.description}
      </TableCell>
      <TableCell sx={WIDE_ONLY}>{device.board.model ?? "—"}</TableCell>
      <TableCell sx={WIDE_ONLY}>{device.firmware ?? "—"}</TableCell>
      <TableCell>
        <StatusChip status={device.status} />
      </TableCell>
      <TableCell>
        <SignalLabel quality={device.signal.quality} csq={device.signal.csq} />
      </TableCell>
      <TableCell>
        <Stack direction="row" sx={{ gap: 0.5, flexWrap: "nowrap" }}>
          {device.tags.map((tag) => (
            <Chip key={tag} size="small" variant="outlined" label={tag} />
          ))}
        </Stack>
      </TableCell>
      <TableCell>
        {device.events > 0 ? <Chip size="small" color="warning" label={device.events} /> : 0}
      </TableCell>
      <TableCell>
        <RelativeTime time={device.time} now={now} />
      </TableCell>
    </TableRow>
  );
});

/** The device table of the dashboard: sortable columns, the ident links to the device's page. */
export function DeviceTable({ rows, pageSize, sort, onSort, selected, onSelect }: DeviceTableProps) {
  const { t } = useTranslation();
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
      <Table size="small" data-testid="device-table">
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
                sx={{ whiteSpace: "nowrap", ...("isWideOnly" in column ? WIDE_ONLY : {}) }}
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
              isSelected={selected?.has(device._id) ?? false}
              onSelect={isSelectable ? onSelect : undefined}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
