import type { DeviceStatus, MapClustersRequest, MapFeature } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CircularProgress from "@mui/material/CircularProgress";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useFormatNumber } from "../../app/format";
import { useRealtime, useRealtimeView } from "../../app/realtime/useRealtime";
import { PageTitle } from "../../components/PageTitle";
import { mapKeys } from "./keys";
import { type MapFilter, MapFilters } from "./MapFilters";
import { MapView, type Viewport } from "./MapView";
import { mapClustersQueryOptions, mapStyleQueryOptions } from "./map.queries";
import { resolveStyle } from "./mapStyle";

/** At most one re-read of the clusters this often while routers change (the socket says which). */
const LIVE_REFRESH_MS = 5000;

/** Before the map reports its first viewport: the whole world at zoom 2. */
const FIRST_VIEWPORT: Viewport = { bbox: [-180, -85, 180, 85], zoom: 2 };

/** /map: the domain's routers by position, clustered by the server, coloured by status, live. */
export function MapPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useTheme();
  const formatNumber = useFormatNumber();
  const queryClient = useQueryClient();
  const isDark = theme.palette.mode === "dark";
  const colors: Record<DeviceStatus, string> = useMemo(
    () => ({
      online: theme.palette.success.main,
      warning: theme.palette.warning.main,
      critical: theme.palette.error.main,
      pending: theme.palette.grey[500],
    }),
    [theme],
  );
  const [filter, setFilter] = useState<MapFilter>({ search: "", status: [], tags: [] });
  const [viewport, setViewport] = useState<Viewport>(FIRST_VIEWPORT);
  const styleUrl = useQuery(mapStyleQueryOptions());
  const style = useQuery({
    queryKey: [...mapKeys.style(), styleUrl.data?.style_url ?? null, isDark],
    queryFn: () => resolveStyle(styleUrl.data?.style_url ?? null, isDark),
    enabled: styleUrl.isSuccess || styleUrl.isError,
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  const request: MapClustersRequest = {
    bbox: [...viewport.bbox] as [number, number, number, number],
    zoom: viewport.zoom,
    ...(filter.search.trim() ? { search: filter.search.trim() } : {}),
    ...(filter.status.length > 0 ? { status: filter.status } : {}),
    ...(filter.tags.length > 0 ? { tags: filter.tags } : {}),
  };
  const clusters = useQuery(mapClustersQueryOptions(request));

  // Any router change of the domain comes as a `devices` message with this (empty) list view.
  useRealtimeView({ kind: "devices", ids: [] });
  const lastRefresh = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  useRealtime("devices", () => {
    if (pending.current !== undefined) return;
    const wait = Math.max(0, lastRefresh.current + LIVE_REFRESH_MS - Date.now());
    pending.current = setTimeout(() => {
      pending.current = undefined;
      lastRefresh.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: mapKeys.clusters() });
    }, wait);
  });

  const handleRouterClick = useCallback((id: string) => navigate(`/device/${id}`), [navigate]);
  const describeCluster = useCallback(
    (cluster: Extract<MapFeature, { kind: "cluster" }>) =>
      t("map.cluster", {
        total: formatNumber(cluster.count),
        statuses: (["critical", "warning", "pending", "online"] as const)
          .filter((status) => cluster.statuses[status] > 0)
          .map((status) => `${t(`fleet.status.${status}`)} ${formatNumber(cluster.statuses[status])}`)
          .join(", "),
      }),
    [t, formatNumber],
  );
  const features = useMemo(() => clusters.data?.features ?? [], [clusters.data]);

  return (
    <>
      <PageTitle>{t("routes.map")}</PageTitle>
      <MapFilters filter={filter} colors={colors} onChange={setFilter} />
      <Card
        variant="outlined"
        sx={{
          position: "relative",
          height: { xs: "calc(100vh - 330px)", md: "calc(100vh - 230px)" },
          minHeight: 320,
        }}
      >
        {style.data ? (
          <MapView
            style={style.data}
            features={features}
            fleetBounds={clusters.data?.bounds ?? null}
            colors={colors}
            onViewport={setViewport}
            onRouterClick={handleRouterClick}
            describeCluster={describeCluster}
          />
        ) : (
          <Box sx={{ display: "grid", placeItems: "center", height: "100%" }}>
            <CircularProgress aria-label={t("app.loading")} />
          </Box>
        )}
        {clusters.isError ? (
          <Alert severity="error" sx={{ position: "absolute", left: 8, top: 8 }} data-testid="query-error">
            {t("map.error")}
          </Alert>
        ) : null}
      </Card>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="map-counts">
        {clusters.data
          ? t("map.counts", {
              placed: formatNumber(clusters.data.placed),
              unplaced: formatNumber(clusters.data.unplaced),
            })
          : "\u00a0"}
      </Typography>
    </>
  );
}
