import type { FleetEvent } from "@cellfleet/contract";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import { type InfiniteData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { eventsKeys } from "../../app/queryKeys";
import { useRealtime, useRealtimeView } from "../../app/realtime/useRealtime";
import { clampPage, ListCard, ListPaginator, pageCount, useListState } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { EventsTable } from "./EventsTable";
import {
  eventPushLog,
  eventsInfiniteQueryOptions,
  eventsOfAlert,
  prependEvents,
  useMarkEventsRead,
} from "./events.queries";

const EVENTS_LIST_PREFIX = "events";

/** /events: every event of the domain, newest first; read/unread, mark read, load more at 2048. */
export function EventsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, update] = useListState(EVENTS_LIST_PREFIX);
  const isUnreadOnly = state.facets.read?.includes("unread") ?? false;
  const filter = isUnreadOnly ? { unread: true } : {};
  const events = useInfiniteQuery(eventsInfiniteQueryOptions(filter));
  const markRead = useMarkEventsRead();

  // New events from the socket go to the front of the open list at once: every event of the
  // domain, where other screens get those of the routers they show (ADR 035).
  useRealtimeView({ kind: "events" });
  useRealtime("alerts", (message) => {
    const incoming = eventsOfAlert(message);
    if (incoming.length === 0) return;
    for (const event of incoming) eventPushLog.record(event);
    queryClient.setQueryData<InfiniteData<FleetEvent[], number>>(eventsKeys.list(filter), (data) =>
      data && data.pages.length > 0
        ? { ...data, pages: [prependEvents(data.pages[0] ?? [], incoming), ...data.pages.slice(1)] }
        : data,
    );
  });

  const all = events.data?.pages.flat() ?? [];
  const pages = pageCount(all.length, state.pageSize);
  const page = clampPage(state.page, pages);
  const visible = all.slice(page * state.pageSize, (page + 1) * state.pageSize);
  const hasUnread = all.some((event) => !event.read);

  const body = (
    <QueryState
      query={events}
      isInset
      isEmpty={() => all.length === 0}
      emptyText={isUnreadOnly ? t("fleet.events.noneUnread") : t("fleet.events.none")}
    >
      {() => <EventsTable events={visible} onMarkRead={(event) => markRead.mutate({ ids: [event._id] })} />}
    </QueryState>
  );

  return (
    <>
      <PageTitle>{t("routes.events")}</PageTitle>
      <ListCard
        title={t("fleet.events.title")}
        subtitle={events.data ? t("fleet.events.loaded", { count: all.length }) : undefined}
        onReload={() => void events.refetch()}
        csvExport={{ section: "events", body: filter }}
        actions={
          <Button
            size="small"
            startIcon={<DoneAllIcon />}
            sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
            disabled={!hasUnread || markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
          >
            {t("fleet.events.markAllRead")}
          </Button>
        }
        filters={
          <ToggleButtonGroup
            size="small"
            exclusive
            value={isUnreadOnly ? "unread" : "all"}
            onChange={(_event, value: string | null) => {
              if (value) update({ facets: value === "unread" ? { read: ["unread"] } : {}, page: 0 });
            }}
          >
            <ToggleButton value="all">{t("fleet.events.filterAll")}</ToggleButton>
            <ToggleButton value="unread">{t("fleet.events.filterUnread")}</ToggleButton>
          </ToggleButtonGroup>
        }
        footer={
          <>
            <ListPaginator
              total={all.length}
              page={page}
              pageSize={state.pageSize}
              onPageChange={(next) => update({ page: next })}
              onPageSizeChange={(pageSize) => update({ pageSize, page: 0 })}
            />
            {events.hasNextPage && page >= pages - 1 ? (
              <Stack sx={{ alignItems: "center", pb: 2 }}>
                <Button
                  variant="outlined"
                  onClick={() => events.fetchNextPage()}
                  disabled={events.isFetchingNextPage}
                  data-testid="load-more"
                >
                  {t("fleet.events.loadMore")}
                </Button>
              </Stack>
            ) : null}
          </>
        }
      >
        {body}
      </ListCard>
    </>
  );
}
