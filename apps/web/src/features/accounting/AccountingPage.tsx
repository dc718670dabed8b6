import { canAccess, type PermissionAction, type Plugin, ROUTES, type RouteName } from "@cellfleet/contract";
import BusinessIcon from "@mui/icons-material/Business";
import GroupIcon from "@mui/icons-material/Group";
import HistoryIcon from "@mui/icons-material/History";
import NotificationsIcon from "@mui/icons-material/Notifications";
import PolicyIcon from "@mui/icons-material/Policy";
import RouterIcon from "@mui/icons-material/Router";
import SettingsIcon from "@mui/icons-material/Settings";
import SupervisorAccountIcon from "@mui/icons-material/SupervisorAccount";
import SystemUpdateAltIcon from "@mui/icons-material/SystemUpdateAlt";
import VerifiedUserIcon from "@mui/icons-material/VerifiedUser";
import WorkHistoryIcon from "@mui/icons-material/WorkHistory";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useOffers } from "../../app/session/useOffers";
import { useSession } from "../../app/session/useSession";
import { PageTitle } from "../../components/PageTitle";
import { hubCountsQueryOptions } from "./hub.queries";

type HubEntry =
  | "domains"
  | "superusers"
  | "users"
  | "policies"
  | "software"
  | "logs"
  | "jobs"
  | "licenses"
  | "notifications"
  | "zeroTouch"
  | "settings";

/**
 * A card may also need a plugin of the person's (spec section 6: policies need accounting), or an
 * action of the permission table beyond its route (the domain's settings, which superusers lack).
 */
const ENTRIES: { name: HubEntry; icon: ReactNode; plugin?: Plugin; actions?: PermissionAction[] }[] = [
  { name: "domains", icon: <BusinessIcon fontSize="large" color="primary" /> },
  { name: "superusers", icon: <SupervisorAccountIcon fontSize="large" color="primary" /> },
  { name: "users", icon: <GroupIcon fontSize="large" color="primary" /> },
  { name: "policies", icon: <PolicyIcon fontSize="large" color="primary" />, plugin: "accounting" },
  { name: "software", icon: <SystemUpdateAltIcon fontSize="large" color="primary" /> },
  { name: "logs", icon: <HistoryIcon fontSize="large" color="primary" /> },
  { name: "jobs", icon: <WorkHistoryIcon fontSize="large" color="primary" /> },
  { name: "licenses", icon: <VerifiedUserIcon fontSize="large" color="primary" /> },
  {
    name: "notifications",
    icon: <NotificationsIcon fontSize="large" color="primary" />,
    plugin: "notification",
  },
  { name: "zeroTouch", icon: <RouterIcon fontSize="large" color="primary" /> },
  {
    name: "settings",
    icon: <SettingsIcon fontSize="large" color="primary" />,
    // The hub is administration: operators open their settings from the side menu.
    actions: ["administration.view", "settings.view"],
  },
];

function routeOf(name: RouteName) {
  const route = ROUTES.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route ${name}`);
  return route;
}

/**
 * /accounting: the superuser's home and the administration hub. One card per section the
 * signed-in role may open by the contract's route table, with its count where one list call gives it.
 */
export function AccountingPage() {
  const { t } = useTranslation();
  const user = useSession();
  const offers = useOffers();
  const role = user?.role ?? null;
  const plugins = user?.plugins ?? [];
  const visible = ENTRIES.filter(
    (entry) =>
      canAccess(routeOf(entry.name).access, role) &&
      (!entry.plugin || plugins.includes(entry.plugin)) &&
      (entry.actions ?? []).every((action) => offers(action)),
  );
  const counts = useQuery({ ...hubCountsQueryOptions(visible.map((entry) => entry.name)), enabled: !!user });

  return (
    <>
      <PageTitle>{t("routes.accounting")}</PageTitle>
      {visible.length === 0 ? (
        <Typography color="text.secondary">{t("accounting.hub.nothing")}</Typography>
      ) : (
        <Grid container spacing={2}>
          {visible.map((entry) => {
            const count = counts.data?.[entry.name];
            return (
              <Grid key={entry.name} size={{ xs: 12, sm: 6, lg: 4 }}>
                <Card variant="outlined" sx={{ height: "100%" }}>
                  <CardActionArea
                    component={Link}
                    to={routeOf(entry.name).path}
                    data-testid={`hub-${entry.name}`}
                    sx={{ height: "100%" }}
                  >
                    <CardContent>
                      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
                        {entry.icon}
                        <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
                          <Typography variant="h6" component="h2">
                            {t(`routes.${entry.name}`)}
                          </Typography>
                          <Typography variant="body2" color="text.secondary">
                            {t(`accounting.hub.${entry.name}`)}
                          </Typography>
                        </Stack>
                        {count === undefined ? null : <Chip label={count} />}
                      </Stack>
                    </CardContent>
                  </CardActionArea>
                </Card>
              </Grid>
            );
          })}
        </Grid>
      )}
    </>
  );
}
