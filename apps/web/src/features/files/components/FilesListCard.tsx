import type { CommonFilesRequest, FileDto } from "@cellfleet/contract";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useOffers } from "../../../app/session/useOffers";
import {
  ActiveFilterChips,
  activeFilters,
  clampPage,
  initialListState,
  ListCard,
  ListPaginator,
  pageCount,
  removeFilter,
  SearchBox,
  useListState,
} from "../../../components/list-card";
import { QueryState } from "../../../components/QueryState";
import { DEFAULT_FILE_SORT, filterAndSortFiles } from "../fileRows";
import { downloadFile, exportFiles } from "../files.api";
import { filesListQueryOptions, useDeleteFiles } from "../files.queries";
import { type FileColumn, FilesTable } from "./FilesTable";

interface FilesListCardProps {
  /** Storage prefix of the card's remembered choices (search, sort, page, page size). */
  prefix: string;
  title: string;
  request: CommonFilesRequest;
  columns?: readonly FileColumn[];
  linkOf?: (file: FileDto) => string;
  onAdd?: () => void;
  emptyText: string;
  testId: string;
  /** Shown above the filters (tabs of a page that lists several kinds). */
  header?: ReactNode;
}

/**
 * A list of files in the generic list card (spec section 2): search, sort, page sizes, CSV
 * download, add; download and the two-step delete on each row. The list is short enough to be
 * searched and sorted here (see filterAndSortFiles).
 */
export function FilesListCard(props: FilesListCardProps) {
  const { t } = useTranslation();
  const offers = useOffers();
  const [state, update] = useListState(props.prefix, DEFAULT_FILE_SORT);
  const query = useQuery(filesListQueryOptions(props.request));
  const remove = useDeleteFiles();
  const [isExporting, setExporting] = useState(false);
  const rows = filterAndSortFiles(query.data ?? [], state.search, state.sort);
  const page = clampPage(state.page, pageCount(rows.length, state.pageSize));
  const visible = rows.slice(page * state.pageSize, (page + 1) * state.pageSize);

  async function handleExport() {
    setExporting(true);
    try {
      await exportFiles(props.request);
    } catch {
      // The transport has shown the error.
    } finally {
      setExporting(false);
    }
  }

  return (
    <ListCard
      title={props.title}
      subtitle={query.data ? t("files.total", { count: query.data.length }) : undefined}
      filters={
        <>
          {props.header}
          <SearchBox
            prefix={props.prefix}
            value={state.search}
            onChange={(search) => update({ search, page: 0 })}
          />
        </>
      }
      activeFilters={
        <ActiveFilterChips
          filters={activeFilters(state)}
          labelOf={(filter) => t("fleet.list.searchChip", { text: filter.value })}
          onRemove={(filter) => update((previous) => removeFilter(previous, filter))}
          onClear={() =>
            update((previous) => ({ ...initialListState(previous.sort), pageSize: previous.pageSize }))
          }
        />
      }
      onReload={() => void query.refetch()}
      onDownload={() => void handleExport()}
      isDownloading={isExporting}
      onAdd={props.onAdd && offers("files.upload") ? props.onAdd : undefined}
      footer={
        rows.length > 0 ? (
          <ListPaginator
            total={rows.length}
            page={page}
            pageSize={state.pageSize}
            onPageChange={(next) => update({ page: next })}
            onPageSizeChange={(pageSize) => update({ pageSize, page: 0 })}
          />
        ) : undefined
      }
    >
      <QueryState
        query={query}
        isEmpty={() => rows.length === 0}
        emptyText={state.search.trim() ? t("fleet.list.emptyFiltered") : props.emptyText}
        isInset
      >
        {() => (
          <FilesTable
            files={visible}
            sort={state.sort}
            onSort={(sort) => update({ sort, page: 0 })}
            columns={props.columns}
            linkOf={props.linkOf}
            onDownload={(file) => void downloadFile(file).catch(() => undefined)}
            onDelete={offers("files.delete") ? (file) => remove.mutate([file._id]) : undefined}
            testId={props.testId}
          />
        )}
      </QueryState>
    </ListCard>
  );
}
