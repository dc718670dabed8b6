import type { DeviceDetail } from "@cellfleet/contract";
import EditIcon from "@mui/icons-material/Edit";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Divider from "@mui/material/Divider";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation, useNavigate, useParams } from "react-router";
import { devicesKeys, eventsKeys } from "../../app/queryKeys";
import { useRealtime, useRealtimeView } from "../../app/realtime/useRealtime";
import { useOffers } from "../../app/session/useOffers";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { useNow } from "../../components/useNow";
import { EventsTable } from "../events/EventsTable";
import { deviceEventsQueryOptions, useMarkEventsRead } from "../events/events.queries";
import { DeviceFilesCard } from "../files/components/DeviceFilesCard";
import { ConnectCard } from "../insight/connect/ConnectCard";
import { SignalHistoryCard } from "../insight/history/SignalHistoryCard";
import { UsageCard } from "../insight/usage/UsageCard";
import { RemoteAccessCard } from "../tunnels/RemoteAccessCard";
import { BoardCard } from "./detail/BoardCard";
import { CollectSection } from "./detail/CollectSection";
import { applyCollectUpdates, collectData, collectUpdatesOf } from "./detail/collects";
import { ModemsTable } from "./detail/ModemsTable";
import { EthernetsTable, InterfacesTable, RoutesTable, TunnelsTable } from "./detail/NetworkTables";
import { deviceDetailQueryOptions } from "./device.queries";
import { useDeviceLiveUpdates } from "./useDeviceLiveUpdates";

function DeviceEvents({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const events = useQuery(deviceEventsQueryOptions(deviceId));
  const markRead = useMarkEventsRead();
  return (
    <Card variant="outlined" data-testid="device-events">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, px: 2, py: 1.25 }}>
        {t("routes.events")}
      </Typography>
      <Divider />
      <QueryState
        query={events}
        isInset
        isEmpty={(list) => list.length === 0}
        emptyText={t("fleet.events.none")}
      >
        {(list) => (
          <EventsTable
            events={list}
            hasDevice={false}
            onMarkRead={(event) => markRead.mutate({ ids: [event._id] })}
          />
        )}
      </QueryState>
    </Card>
  );
}

function DeviceSections({ detail, newKey }: { detail: DeviceDetail; newKey: string | null }) {
  const { t } = useTranslation();
  const now = useNow();
  const collect = (type: DeviceDetail["collects"][number]["type"]) =>
    detail.collects.find((entry) => entry.type === type);
  const board = collectData(detail, "board");
  const modems = collectData(detail, "modems");
  const interfacesReport = collectData(detail, "interfaces");
  const interfaces = interfacesReport?.interfaces ?? [];
  const ethernets = collectData(detail, "ethernets");
  const tunnels = collectData(detail, "tunnels");
  const routing = collectData(detail, "routing");
  return (
    <Grid container spacing={2}>
      <Grid size={12}>
        <BoardCard device={detail.device} collect={collect("board")} board={board} now={now} />
      </Grid>
      <Grid size={12}>
        <RemoteAccessCard device={detail.device} />
      </Grid>
      <Grid size={12}>
        <ConnectCard device={detail.device} initialKey={newKey} />
      </Grid>
      <Grid size={12}>
        <CollectSection
          title={t("fleet.device.modems")}
          collect={collect("modems")}
          now={now}
          testId="section-modems"
          isReadable={modems !== null}
        >
          <ModemsTable modems={modems?.modems ?? []} />
        </CollectSection>
      </Grid>
      <Grid size={12}>
        <SignalHistoryCard deviceId={detail.device._id} />
      </Grid>
      <Grid size={12}>
        <UsageCard device={detail.device} />
      </Grid>
      <Grid size={{ xs: 12, xl: 6 }}>
        <CollectSection
          title={t("fleet.device.wanInterfaces")}
          collect={collect("interfaces")}
          now={now}
          testId="section-wan"
          isReadable={interfacesReport !== null}
        >
          <InterfacesTable
            testId="wan-table"
            interfaces={interfaces.filter((entry) => entry.kind === "wan")}
          />
        </CollectSection>
      </Grid>
      <Grid size={{ xs: 12, xl: 6 }}>
        <CollectSection
          title={t("fleet.device.otherInterfaces")}
          collect={collect("interfaces")}
          now={now}
          testId="section-other"
          isReadable={interfacesReport !== null}
        >
          <InterfacesTable
            testId="other-table"
            interfaces={interfaces.filter((entry) => entry.kind !== "wan")}
          />
        </CollectSection>
      </Grid>
      <Grid size={{ xs: 12, xl: 6 }}>
        <CollectSection
          title={t("fleet.device.ethernets")}
          collect={collect("ethernets")}
          now={now}
          testId="section-ethernets"
          isReadable={ethernets !== null}
        >
          <EthernetsTable ports={ethernets?.ports ?? []} />
        </CollectSection>
      </Grid>
      <Grid size={{ xs: 12, xl: 6 }}>
        <CollectSection
          title={t("fleet.device.tunnels")}
          collect={collect("tunnels")}
          now={now}
          testId="section-tunnels"
          isReadable={tunnels !== null}
        >
          <TunnelsTable tunnels={tunnels?.tunnels ?? []} />
        </CollectSection>
      </Grid>
      <Grid size={12}>
        <CollectSection
          title={t("fleet.device.routes")}
          collect={collect("routing")}
          now={now}
          testId="section-routes"
          isReadable={routing !== null}
        >
          <RoutesTable routes={routing?.routes ?? []} />
        </CollectSection>
      </Grid>
      <Grid size={12}>
        <DeviceFilesCard deviceId={detail.device._id} />
      </Grid>
      <Grid size={12}>
        <DeviceEvents deviceId={detail.device._id} />
      </Grid>
    </Grid>
  );
}

/** /device/{dev_id}: the device and everything it reported, live over the `collects` messages. */
export function DevicePage() {
  const { t } = useTranslation();
  const { dev_id: id = "" } = useParams();
  const queryClient = useQueryClient();
  const detail = useQuery(deviceDetailQueryOptions(id));
  const offers = useOffers();
  const location = useLocation();
  const navigate = useNavigate();
  // A key made on the create form comes along once; the state is dropped so a reload does not show it again.
  const [newKey] = useState(() => (location.state as { newKey?: string } | null)?.newKey ?? null);
  const hasState = location.state !== null && location.state !== undefined;
  useEffect(() => {
    if (hasState) navigate(location.pathname, { replace: true, state: null });
  }, [hasState, location.pathname, navigate]);
  useDeviceLiveUpdates();
  // The socket sends this device's changes, collects and events only (ADR 035).
  useRealtimeView(id ? { kind: "device", id } : null);

  useRealtime("collects", (message) => {
    const updates = collectUpdatesOf(message);
    if (updates.some((update) => update.device_id === id)) {
      queryClient.setQueryData<DeviceDetail>(devicesKeys.detail(id), (data) =>
        data ? applyCollectUpdates(data, updates) : data,
      );
    }
  });
  useRealtime("alerts", (message) => {
    const content = (message as { content?: { device?: { _id?: string } | null }[] }).content;
    if (content?.some((event) => event.device?._id === id))
      void queryClient.invalidateQueries({ queryKey: eventsKeys.device(id) });
  });

  const title = detail.data ? detail.data.device.ident : t("routes.device");
  return (
    <>
      <Stack direction="row" sx={{ alignItems: "flex-start", gap: 2, flexWrap: "wrap" }}>
        <Stack sx={{ flexGrow: 1 }}>
          <PageTitle>{title}</PageTitle>
        </Stack>
        {detail.data && offers("devices.edit") ? (
          <Button
            component={RouterLink}
            to={`/device/edit/${id}`}
            startIcon={<EditIcon />}
            variant="outlined"
          >
            {t("fleet.device.edit")}
          </Button>
        ) : null}
      </Stack>
      <QueryState query={detail}>{(data) => <DeviceSections detail={data} newKey={newKey} />}</QueryState>
    </>
  );
}
