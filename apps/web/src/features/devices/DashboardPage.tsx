import LibraryAddCheckIcon from "@mui/icons-material/LibraryAddCheck";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useOffers } from "../../app/session/useOffers";
import { useListState } from "../../components/list-card";
import { toggleFacet } from "../../components/list-card/listState";
import { PageTitle } from "../../components/PageTitle";
import { DeclinesCard } from "../insight/DeclinesCard";
import { DeviceListCard } from "./components/DeviceListCard";
import { StatusTotals } from "./components/StatusTotals";
import { DASHBOARD_LIST_PREFIX } from "./deviceListRequest";
import { dashboardTotalsQueryOptions } from "./devices.queries";
import { useDeviceLiveUpdates } from "./useDeviceLiveUpdates";

/** /dashboard: status totals and the live device list. */
export function DashboardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const [state, update] = useListState(DASHBOARD_LIST_PREFIX, { field: "ident", direction: "asc" });
  const totals = useQuery(dashboardTotalsQueryOptions());
  useDeviceLiveUpdates();

  return (
    <>
      <PageTitle>{t("routes.dashboard")}</PageTitle>
      <StatusTotals
        totals={totals.data}
        selected={state.facets.status ?? []}
        onToggle={(status) => update((previous) => toggleFacet(previous, "status", status))}
      />
      <DeclinesCard />
      <DeviceListCard
        title={t("fleet.dashboard.devices")}
        prefix={DASHBOARD_LIST_PREFIX}
        state={state}
        onChange={update}
        onAdd={offers("devices.create") ? () => navigate("/devices/new/one") : undefined}
        actions={
          <>
            {offers("devices.create") ? (
              <Tooltip title={t("fleet.dashboard.import")}>
                <IconButton
                  aria-label={t("fleet.dashboard.import")}
                  onClick={() => navigate("/devices/new/import")}
                >
                  <UploadFileIcon />
                </IconButton>
              </Tooltip>
            ) : null}
            <Tooltip title={t("routes.devicesMultiple")}>
              <IconButton
                aria-label={t("routes.devicesMultiple")}
                onClick={() => navigate("/devices/multiple")}
              >
                <LibraryAddCheckIcon />
              </IconButton>
            </Tooltip>
          </>
        }
      />
    </>
  );
}
