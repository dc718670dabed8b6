import { type FileDto, isFileDeletable } from "@cellfleet/contract";
import DownloadIcon from "@mui/icons-material/Download";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { formatMoment } from "../../../app/format";
import { DeleteButton } from "../../../components/DeleteButton";
import type { ListSort } from "../../../components/list-card";
import { useFormatFileSize } from "../fileLists";
import type { FileSortField } from "../fileRows";

/** The optional columns of a file table. */
export type FileColumn = "file_type" | "user" | "status";

interface FilesTableProps {
  files: FileDto[];
  sort: ListSort | null;
  onSort: (sort: ListSort) => void;
  /** Columns beyond name, size, date and the actions. */
  columns?: readonly FileColumn[];
  /** Where a file's name leads; plain text when absent. */
  linkOf?: (file: FileDto) => string;
  /** Absent: no download button (a backup for someone who may not read it). */
  onDownload?: (file: FileDto) => void;
  /** Offered delete (admins, spec section 6); 'system' files never get the button. */
  onDelete?: (file: FileDto) => void;
  testId: string;
}

// On a phone the name, size and buttons matter; the rest waits for a wider screen.
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

/** A table of files: sortable headers, sizes in base-1024 units, download and two-step delete. */
export function FilesTable({
  files,
  sort,
  onSort,
  columns = [],
  linkOf,
  onDownload,
  onDelete,
  testId,
}: FilesTableProps) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatFileSize();

  function header(field: FileSortField, label: string, isWideOnly = false) {
    const isActive = sort?.field === field;
    return (
      <TableCell sx={{ fontWeight: 600, whiteSpace: "nowrap", ...(isWideOnly ? WIDE_ONLY : {}) }}>
        <TableSortLabel
          active={isActive}
          direction={isActive ? sort.direction : "asc"}
          onClick={() => onSort({ field, direction: isActive && sort.direction === "asc" ? "desc" : "asc" })}
        >
          {label}
        </TableSortLabel>
      </TableCell>
    );
  }

  return (
    <TableContainer>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            {header("filename", t("files.columns.filename"))}
            {columns.includes("file_type") ? header("file_type", t("files.columns.type"), true) : null}
            {header("size", t("files.columns.size"))}
            {header("create_date", t("files.columns.date"), true)}
            {columns.includes("user") ? header("user", t("files.columns.user"), true) : null}
            {columns.includes("status") ? (
              <TableCell sx={{ fontWeight: 600, ...WIDE_ONLY }}>{t("files.columns.status")}</TableCell>
            ) : null}
            <TableCell align="right" aria-label={t("files.columns.actions")} />
          </TableRow>
        </TableHead>
        <TableBody>
          {files.map((file) => (
            <TableRow key={file._id} hover data-testid="file-row" data-filename={file.filename}>
              <TableCell sx={{ overflowWrap: "anywhere", minWidth: 120 }}>
                {linkOf ? (
                  <Link component={RouterLink} to={linkOf(file)}>
                    {file.filename}
                  </Link>
                ) : (
                  file.filename
                )}
                {file.repeats > 0 ? (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {t("files.repeats", { count: file.repeats })}
                  </Typography>
                ) : null}
              </TableCell>
              {columns.includes("file_type") ? (
                <TableCell sx={WIDE_ONLY}>{t(`files.types.${file.file_type}`)}</TableCell>
              ) : null}
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatSize(file.size)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap", ...WIDE_ONLY }}>
                {formatMoment(file.create_date, i18n.language)}
              </TableCell>
              {columns.includes("user") ? (
                <TableCell sx={WIDE_ONLY}>
                  {file.metadata.user_name ??
                    (file.metadata.user_id === null ? t("files.byRouter") : file.metadata.user_id)}
                </TableCell>
              ) : null}
              {columns.includes("status") ? (
                <TableCell sx={WIDE_ONLY}>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={file.status === "completed" ? "success" : "error"}
                    label={t(`files.status.${file.status}`)}
                  />
                </TableCell>
              ) : null}
              <TableCell align="right" sx={{ whiteSpace: "nowrap", py: 0 }}>
                <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
                  {onDownload ? (
                    <Tooltip title={t("files.download")}>
                      <IconButton
                        aria-label={t("files.downloadNamed", { name: file.filename })}
                        onClick={() => onDownload(file)}
                      >
                        <DownloadIcon />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                  {onDelete && isFileDeletable(file) ? (
                    <DeleteButton
                      label={t("files.deleteNamed", { name: file.filename })}
                      onDelete={() => onDelete(file)}
                    />
                  ) : null}
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
