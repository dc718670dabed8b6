import { type CommonFilesRequest, type FileDto, isCommonFileType } from "@cellfleet/contract";
import Card from "@mui/material/Card";
import Divider from "@mui/material/Divider";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useOffers } from "../../../app/session/useOffers";
import type { ListSort } from "../../../components/list-card";
import { QueryState } from "../../../components/QueryState";
import { FILE_LIST_KINDS } from "../fileLists";
import { DEFAULT_FILE_SORT, filterAndSortFiles } from "../fileRows";
import { downloadFile } from "../files.api";
import { filesListQueryOptions, useDeleteFiles } from "../files.queries";
import { FilesTable } from "./FilesTable";

/** The tabs of a device's files table (spec section 2). */
const DEVICE_FILE_TABS = ["journal", "backup", "common", "report"] as const;
type DeviceFileTab = (typeof DEVICE_FILE_TABS)[number];

function requestOf(tab: DeviceFileTab, deviceId: string): CommonFilesRequest {
  return tab === "common" ? null : { device_id: deviceId, file_type: tab };
}

function linkOfCommon(file: FileDto): string {
  return isCommonFileType(file.file_type) ? FILE_LIST_KINDS[file.file_type].item(file._id) : "";
}

/**
 * The device page's files table: the router's journals, its backups, the domain's common files, or
 * its command report files; each with download, and the two-step delete for admins.
 */
export function DeviceFilesCard({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const offers = useOffers();
  const [tab, setTab] = useState<DeviceFileTab>("journal");
  const [sort, setSort] = useState<ListSort>(DEFAULT_FILE_SORT);
  const query = useQuery(filesListQueryOptions(requestOf(tab, deviceId)));
  const remove = useDeleteFiles();
  const rows = filterAndSortFiles(query.data ?? [], "", sort);
  return (
    <Card variant="outlined" data-testid="device-files">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, px: 2, pt: 1.25 }}>
        {t("files.device.title")}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_event, value: DeviceFileTab) => setTab(value)}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ px: 1 }}
      >
        {DEVICE_FILE_TABS.map((name) => (
          <Tab
            key={name}
            value={name}
            label={t(`files.device.tabs.${name}`)}
            data-testid={`device-files-${name}`}
          />
        ))}
      </Tabs>
      <Divider />
      <QueryState
        query={query}
        isEmpty={() => rows.length === 0}
        emptyText={t(`files.device.empty.${tab}`)}
        isInset
      >
        {() => (
          <FilesTable
            files={rows}
            sort={sort}
            onSort={setSort}
            columns={tab === "common" ? ["file_type", "user"] : ["status"]}
            linkOf={tab === "common" ? linkOfCommon : undefined}
            onDownload={
              tab !== "backup" || offers("files.downloadBackups")
                ? (file) => void downloadFile(file).catch(() => undefined)
                : undefined
            }
            onDelete={offers("files.delete") ? (file) => remove.mutate([file._id]) : undefined}
            testId="device-files-table"
          />
        )}
      </QueryState>
    </Card>
  );
}
