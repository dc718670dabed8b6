import {
  CAPTION_HIDDEN_MAX_WIDTH,
  DRAWER_WIDTH,
  isHeldOnProfile,
  TOOLBAR_HIDE_SCROLL_PX,
} from "@cellfleet/contract";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Slide from "@mui/material/Slide";
import Toolbar from "@mui/material/Toolbar";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import useScrollTrigger from "@mui/material/useScrollTrigger";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { matchRoute } from "../navigation/resolveNavigation";
import { useSession } from "../session/useSession";
import { UserMenu } from "./UserMenu";

// Only a signed-in user has news: the bell and its popover stay out of the /login bundle. Its texts
// are the shell part's, fetched with the console shell (textParts.ts).
const NewsBell = lazy(async () => ({
  default: (await import("../../features/notifications/components/NewsBell")).NewsBell,
}));

interface AppToolbarProps {
  hasDrawerBeside: boolean;
  onMenuClick: () => void;
}

/** Full name (or name) plus ' / domain' when the user has one (spec section 2, top toolbar). */
export function userCaption(user: { name: string; domain_name: string | null }): string {
  return user.domain_name ? `${user.name} / ${user.domain_name}` : user.name;
}

/** The top toolbar: menu button on narrow windows, back button, user caption and user menu. */
export function AppToolbar({ hasDrawerBeside, onMenuClick }: AppToolbarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const user = useSession();
  const isScrolledAway = useScrollTrigger({ threshold: TOOLBAR_HIDE_SCROLL_PX });
  const back = matchRoute(pathname)?.back;

  return (
    <Slide appear={false} direction="down" in={!isScrolledAway}>
      <AppBar
        position="fixed"
        color="primary"
        elevation={1}
        sx={
          hasDrawerBeside ? { width: `calc(100% - ${DRAWER_WIDTH}px)`, ml: `${DRAWER_WIDTH}px` } : undefined
        }
      >
        <Toolbar sx={{ gap: 1 }}>
          {hasDrawerBeside ? null : (
            <IconButton color="inherit" edge="start" aria-label={t("toolbar.openMenu")} onClick={onMenuClick}>
              <MenuIcon />
            </IconButton>
          )}
          {back ? (
            <Tooltip title={t("toolbar.back")}>
              <IconButton color="inherit" aria-label={t("toolbar.back")} onClick={() => navigate(back)}>
                <ArrowBackIcon />
              </IconButton>
            </Tooltip>
          ) : null}
          {hasDrawerBeside ? null : (
            <Typography variant="h6" component="div" sx={{ fontWeight: 700 }}>
              {t("app.name")}
            </Typography>
          )}
          <Box sx={{ flexGrow: 1 }} />
          {user ? (
            <Typography
              data-testid="user-caption"
              variant="body1"
              noWrap
              sx={{
                maxWidth: "50vw",
                [`@media (max-width: ${CAPTION_HIDDEN_MAX_WIDTH}px)`]: { display: "none" },
              }}
            >
              {userCaption(user)}
            </Typography>
          ) : null}
          {user && !isHeldOnProfile(user) ? (
            <Suspense fallback={null}>
              <NewsBell />
            </Suspense>
          ) : null}
          <UserMenu />
        </Toolbar>
      </AppBar>
    </Slide>
  );
}
