import { DRAWER_WIDTH, MENU_PATHS, type MenuItemName, menuFor } from "@cellfleet/contract";
import AdminPanelSettingsIcon from "@mui/icons-material/AdminPanelSettings";
import DashboardIcon from "@mui/icons-material/Dashboard";
import DescriptionIcon from "@mui/icons-material/Description";
import Inventory2Icon from "@mui/icons-material/Inventory2";
import MapIcon from "@mui/icons-material/Map";
import MemoryIcon from "@mui/icons-material/Memory";
import NotificationsActiveIcon from "@mui/icons-material/NotificationsActive";
import QueryStatsIcon from "@mui/icons-material/QueryStats";
import RouterIcon from "@mui/icons-material/Router";
import SettingsIcon from "@mui/icons-material/Settings";
import TerminalIcon from "@mui/icons-material/Terminal";
import ViewQuiltIcon from "@mui/icons-material/ViewQuilt";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { useSession } from "../session/useSession";

const MENU_ICONS: Record<MenuItemName, ReactNode> = {
  dashboard: <DashboardIcon />,
  map: <MapIcon />,
  events: <NotificationsActiveIcon />,
  uptime: <QueryStatsIcon />,
  commands: <TerminalIcon />,
  scripts: <DescriptionIcon />,
  packages: <Inventory2Icon />,
  firmwares: <MemoryIcon />,
  templates: <ViewQuiltIcon />,
  settings: <SettingsIcon />,
  accounting: <AdminPanelSettingsIcon />,
};

/** Marks on menu entries: the Events entry shows 'new' while unread events exist (a later issue). */
export type MenuBadges = Partial<Record<MenuItemName, boolean>>;

interface NavDrawerProps {
  isPermanent: boolean;
  isOpen: boolean;
  onClose: () => void;
  badges?: MenuBadges;
}

function isCurrent(pathname: string, target: string): boolean {
  return pathname === target || pathname.startsWith(`${target}/`);
}

function DrawerContent({ badges }: { badges: MenuBadges }) {
  const { t } = useTranslation();
  const user = useSession();
  const { pathname } = useLocation();
  return (
    <Box data-testid="nav-drawer" sx={{ width: DRAWER_WIDTH }}>
      <Toolbar sx={{ gap: 1.5 }}>
        <RouterIcon color="primary" />
        <Typography variant="h6" component="div" sx={{ fontWeight: 700 }}>
          {t("app.name")}
        </Typography>
      </Toolbar>
      <Divider />
      {user ? (
        <List component="nav" aria-label={t("menu.label")}>
          {menuFor(user).map((item) => (
            <ListItemButton
              key={item}
              component={NavLink}
              to={MENU_PATHS[item]}
              selected={isCurrent(pathname, MENU_PATHS[item])}
            >
              <ListItemIcon>{MENU_ICONS[item]}</ListItemIcon>
              <ListItemText primary={t(`menu.${item}`)} />
              {badges[item] ? <Badge color="error" badgeContent={t("menu.new")} sx={{ mr: 2 }} /> : null}
            </ListItemButton>
          ))}
        </List>
      ) : (
        <Box sx={{ p: 3 }}>
          <Typography variant="h6" gutterBottom>
            {t("drawer.welcomeTitle")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("drawer.welcomeText")}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

/** The side menu of spec section 2: permanent on wide windows, a temporary sheet on narrow ones. */
export function NavDrawer({ isPermanent, isOpen, onClose, badges = {} }: NavDrawerProps) {
  const paperSx = { width: DRAWER_WIDTH, boxSizing: "border-box" } as const;
  if (isPermanent) {
    return (
      <Drawer
        variant="permanent"
        open
        sx={{ width: DRAWER_WIDTH, flexShrink: 0 }}
        slotProps={{ paper: { sx: paperSx } }}
      >
        <DrawerContent badges={badges} />
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="temporary"
      open={isOpen}
      onClose={onClose}
      onClick={onClose}
      slotProps={{ paper: { sx: paperSx } }}
      ModalProps={{ keepMounted: true }}
    >
      <DrawerContent badges={badges} />
    </Drawer>
  );
}
