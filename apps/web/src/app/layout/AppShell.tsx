import { MOBILE_BREAKPOINT } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Toolbar from "@mui/material/Toolbar";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { InfoMessageHost } from "../messages/InfoMessageHost";
import { RouteGuard } from "../navigation/RouteGuard";
import { RealtimeConnection } from "../realtime/RealtimeConnection";
import { AppToolbar } from "./AppToolbar";
import { Footer } from "./Footer";
import { LoadingBar } from "./LoadingBar";
import { type MenuBadges, NavDrawer } from "./NavDrawer";
import { PasswordExpiryBanner } from "./PasswordExpiryBanner";

interface AppShellProps {
  /** Menu marks, such as 'new' on Events while unread events exist. */
  badges?: MenuBadges;
}

/** The frame of every page: drawer, toolbar, expiry banner, the guarded page, footer, messages. */
export function AppShell({ badges }: AppShellProps) {
  const isWide = useMediaQuery(`(min-width:${MOBILE_BREAKPOINT}px)`, { noSsr: true });
  const [isMenuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();

  // A page change closes the temporary menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a path change on purpose
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <Box sx={{ display: "flex", minHeight: "100vh", bgcolor: "background.default" }}>
      <LoadingBar />
      <RealtimeConnection />
      <AppToolbar hasDrawerBeside={isWide} onMenuClick={() => setMenuOpen(true)} />
      <NavDrawer
        isPermanent={isWide}
        isOpen={isMenuOpen}
        onClose={() => setMenuOpen(false)}
        badges={badges}
      />
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        <Toolbar />
        <PasswordExpiryBanner />
        <Box sx={{ flexGrow: 1, p: { xs: 2, sm: 3 } }}>
          <RouteGuard />
        </Box>
        <Footer />
      </Box>
      <InfoMessageHost />
    </Box>
  );
}
