import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { useRealtimeView } from "../../../app/realtime/useRealtime";
import {
  type ActiveFilter,
  ActiveFilterChips,
  activeFilters,
  EventsFilterSelect,
  initialListState,
  ListCard,
  ListPaginator,
  type ListState,
  pageCount,
  removeFilter,
  SearchBox,
  TagsInput,
  toggleFacet,
} from "../../../components/list-card";
import { toDeviceListRequest } from "../deviceListRequest";
import { downloadDevices } from "../devices.api";
import { deviceListQueryOptions, tagFrequenciesQueryOptions } from "../devices.queries";
import { DeviceTable } from "./DeviceTable";
import { FacetMenus } from "./FacetMenus";
import { useFacetValueLabel } from "./facetLabels";

interface DeviceListCardProps {
  title: string;
  prefix: string;
  state: ListState;
  onChange: (patch: Partial<ListState> | ((previous: ListState) => ListState)) => void;
  onAdd?: () => void;
  actions?: ReactNode;
  selected?: ReadonlySet<string>;
  onSelect?: (ids: string[], isSelected: boolean) => void;
}

/**
 * The device list in the generic list card: search, tags, events and facet filters, active filter
 * chips, reload, CSV download, the streamed table and the paginator. Filtering, sorting and paging
 * are the server's (POST /api/devices/).
 */
export function DeviceListCard({
  title,
  prefix,
  state,
  onChange,
  onAdd,
  actions,
  selected,
  onSelect,
}: DeviceListCardProps) {
  const { t } = useTranslation();
  const valueLabel = useFacetValueLabel();
  const request = toDeviceListRequest(state);
  const list = useQuery(deviceListQueryOptions(request));
  const tags = useQuery(tagFrequenciesQueryOptions());
  const [isDownloading, setDownloading] = useState(false);
  const page = list.data;
  const total = page?.header?.total ?? 0;
  const lastPage = pageCount(total, state.pageSize) - 1;
  // The socket sends changes of the rows on screen and a mark when the totals may have moved (ADR 035).
  const visibleIds = page?.rows.slice(0, state.pageSize).map((row) => row._id) ?? [];
  useRealtimeView({ kind: "devices", ids: visibleIds });

  // A remembered page the list no longer has (devices deleted, filters narrowed): go to the last one.
  useEffect(() => {
    if (page?.header && state.page > lastPage) onChange({ page: lastPage });
  }, [page?.header, state.page, lastPage, onChange]);

  function labelOf(filter: ActiveFilter): string {
    switch (filter.kind) {
      case "search":
        return t("fleet.list.searchChip", { text: filter.value });
      case "tag":
        return t("fleet.list.tagChip", { tag: filter.value });
      case "events":
        return t(`fleet.list.eventsFilter.${filter.value}`);
      case "facet":
        return `${t(`fleet.facets.${filter.facet}`)}: ${valueLabel(filter.facet ?? "", filter.value)}`;
    }
  }

  async function handleDownload() {
    setDownloading(true);
    try {
      const { page: _page, size: _size, facets: _facets, ...filters } = request;
      await downloadDevices(filters);
    } catch {
      // The transport has shown the error.
    } finally {
      setDownloading(false);
    }
  }

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Stack sx={{ alignItems: "center", py: 6 }}>
        <CircularProgress aria-label={t("app.loading")} />
      </Stack>
    );
  } else if (list.isError && !page) {
    body = (
      <Alert
        severity="error"
        sx={{ m: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => list.refetch()}>
            {t("common.retry")}
          </Button>
        }
      >
        {apiErrorText(list.error)}
      </Alert>
    );
  } else if (page && page.rows.length === 0 && (page.isComplete || page.header?.total === 0)) {
    body = (
      <Typography color="text.secondary" sx={{ p: 4, textAlign: "center" }} data-testid="list-empty">
        {activeFilters(state).length ? t("fleet.list.emptyFiltered") : t("fleet.dashboard.empty")}
      </Typography>
    );
  } else {
    body = (
      <DeviceTable
        rows={page?.rows ?? []}
        pageSize={state.pageSize}
        sort={state.sort}
        onSort={(sort) => onChange({ sort, page: 0 })}
        selected={selected}
        onSelect={onSelect}
      />
    );
  }

  return (
    <ListCard
      title={title}
      subtitle={page?.header ? t("fleet.list.total", { count: total }) : undefined}
      onReload={() => void list.refetch()}
      onDownload={handleDownload}
      isDownloading={isDownloading}
      onAdd={onAdd}
      actions={actions}
      filters={
        <>
          <SearchBox
            prefix={prefix}
            value={state.search}
            onChange={(search) => onChange({ search, page: 0 })}
          />
          <TagsInput
            value={state.tags}
            frequencies={tags.data}
            onChange={(next) => onChange({ tags: next, page: 0 })}
          />
          <EventsFilterSelect
            value={state.events}
            counts={page?.facets?.events}
            onChange={(events) => onChange({ events, page: 0 })}
          />
          <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1.5, alignItems: "center", pt: 0.5 }}>
            <FacetMenus
              facets={page?.facets ?? null}
              chosen={state.facets}
              onToggle={(facet, value) => onChange((previous) => toggleFacet(previous, facet, value))}
            />
          </Stack>
        </>
      }
      activeFilters={
        <ActiveFilterChips
          filters={activeFilters(state)}
          labelOf={labelOf}
          onRemove={(filter) => onChange((previous) => removeFilter(previous, filter))}
          onClear={() =>
            onChange((previous) => ({ ...initialListState(previous.sort), pageSize: previous.pageSize }))
          }
        />
      }
      footer={
        <ListPaginator
          total={total}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(next) => onChange({ page: next })}
          onPageSizeChange={(pageSize) => onChange({ pageSize, page: 0 })}
        />
      }
    >
      {list.isFetching && page ? <LinearProgress sx={{ height: 2 }} /> : null}
      {body}
    </ListCard>
  );
}
