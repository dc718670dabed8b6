import AddIcon from "@mui/icons-material/Add";
import DownloadIcon from "@mui/icons-material/Download";
import RefreshIcon from "@mui/icons-material/Refresh";
import Card from "@mui/material/Card";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isSameTitle, usePageTitle } from "../PageTitle";
import { type CsvExportSpec, useCsvExport } from "./useCsvExport";

interface ListCardProps {
  title: string;
  /** A short line under the title, such as the total count. */
  subtitle?: ReactNode;
  /** The filter controls: search box, tags input, events filter, facets. */
  filters?: ReactNode;
  /** The chips of the filters in force. */
  activeFilters?: ReactNode;
  onReload?: () => void;
  onDownload?: () => void;
  onAdd?: () => void;
  /** Extra actions beside reload/download/add. */
  actions?: ReactNode;
  /** The table (or the pending, error or empty state that stands in for it). */
  children: ReactNode;
  /** The paginator under the table. */
  footer?: ReactNode;
  isDownloading?: boolean;
  /** The list's CSV export: the download button runs it with these filters (instead of onDownload). */
  csvExport?: CsvExportSpec;
}

/**
 * The generic list card of spec section 2: a title with reload, download and add actions, a row of
 * filters, the chips of active filters, the table, and the paginator. Lists bring their own state
 * (`useListState`) and columns; the card only arranges them. A title that repeats the page's heading is
 * left out.
 */
export function ListCard(props: ListCardProps) {
  const { t } = useTranslation();
  // The page's heading already names the list: the card keeps only its count line.
  const isTitleRepeated = isSameTitle(usePageTitle(), props.title);
  const csvExport = useCsvExport(props.csvExport);
  const onDownload = props.onDownload ?? csvExport.onDownload;
  const isDownloading = props.isDownloading ?? csvExport.isDownloading;
  return (
    <Card variant="outlined" data-testid="list-card">
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, px: 2, pt: 1.5, pb: 1 }}>
        <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
          {isTitleRepeated ? null : (
            <Typography
              variant="h6"
              component="h2"
              sx={{ overflowWrap: "anywhere" }}
              data-testid="list-card-title"
            >
              {props.title}
            </Typography>
          )}
          {props.subtitle ? (
            <Typography variant="body2" color="text.secondary" component="div">
              {props.subtitle}
            </Typography>
          ) : null}
        </Stack>
        {props.actions}
        {props.onReload ? (
          <Tooltip title={t("fleet.list.reload")}>
            <IconButton aria-label={t("fleet.list.reload")} onClick={props.onReload}>
              <RefreshIcon />
            </IconButton>
          </Tooltip>
        ) : null}
        {onDownload ? (
          <Tooltip title={t("fleet.list.download")}>
            <span>
              <IconButton aria-label={t("fleet.list.download")} onClick={onDownload} disabled={isDownloading}>
                <DownloadIcon />
              </IconButton>
            </span>
          </Tooltip>
        ) : null}
        {props.onAdd ? (
          <Tooltip title={t("fleet.list.add")}>
            <IconButton aria-label={t("fleet.list.add")} color="primary" onClick={props.onAdd}>
              <AddIcon />
            </IconButton>
          </Tooltip>
        ) : null}
      </Stack>
      {props.filters ? (
        <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1.5, px: 2, pb: 1.5, alignItems: "flex-start" }}>
          {props.filters}
        </Stack>
      ) : null}
      {props.activeFilters}
      <Divider />
      {props.children}
      {props.footer ? (
        <>
          <Divider />
          {props.footer}
        </>
      ) : null}
    </Card>
  );
}
