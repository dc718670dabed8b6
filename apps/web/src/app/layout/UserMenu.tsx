import AccountCircleIcon from "@mui/icons-material/AccountCircle";
import DarkModeIcon from "@mui/icons-material/DarkMode";
import LightModeIcon from "@mui/icons-material/LightMode";
import LogoutIcon from "@mui/icons-material/Logout";
import PersonIcon from "@mui/icons-material/Person";
import SettingsIcon from "@mui/icons-material/Settings";
import TranslateIcon from "@mui/icons-material/Translate";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { type MouseEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { currentLocale, setLocale } from "../i18n";
import { useOffers } from "../session/useOffers";
import { useSession } from "../session/useSession";
import { themeModeStore, useThemeMode } from "../themeMode";

/**
 * The toolbar's menu (spec section 2): profile, settings (not for superusers), language ru/en,
 * theme, logout. Signed out, it keeps only the language and theme toggles.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession();
  const offers = useOffers();
  const mode = useThemeMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const handleOpen = (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget);
  const handleClose = () => setAnchor(null);
  const handleGo = (path: string) => {
    handleClose();
    navigate(path);
  };
  const handleToggleLanguage = () => setLocale(currentLocale() === "ru" ? "en" : "ru");
  const handleToggleTheme = () => themeModeStore.toggle();

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t("userMenu.label")}
        aria-haspopup="menu"
        aria-controls={anchor ? "user-menu" : undefined}
        aria-expanded={anchor ? "true" : undefined}
        onClick={handleOpen}
      >
        <AccountCircleIcon />
      </IconButton>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={handleClose}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ paper: { sx: { minWidth: 220 } } }}
      >
        {user ? (
          <MenuItem onClick={() => handleGo("/profile")}>
            <ListItemIcon>
              <PersonIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t("userMenu.profile")}</ListItemText>
          </MenuItem>
        ) : null}
        {user && offers("settings.view") ? (
          <MenuItem onClick={() => handleGo("/settings")}>
            <ListItemIcon>
              <SettingsIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t("userMenu.settings")}</ListItemText>
          </MenuItem>
        ) : null}
        <MenuItem data-testid="toggle-language" onClick={handleToggleLanguage}>
          <ListItemIcon>
            <TranslateIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("userMenu.switchLanguage")}</ListItemText>
        </MenuItem>
        <MenuItem data-testid="toggle-theme" onClick={handleToggleTheme}>
          <ListItemIcon>
            {mode === "light" ? <DarkModeIcon fontSize="small" /> : <LightModeIcon fontSize="small" />}
          </ListItemIcon>
          <ListItemText>{mode === "light" ? t("userMenu.darkTheme") : t("userMenu.lightTheme")}</ListItemText>
        </MenuItem>
        {user ? <Divider /> : null}
        {user ? (
          <MenuItem onClick={() => handleGo("/logout")}>
            <ListItemIcon>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t("userMenu.logout")}</ListItemText>
          </MenuItem>
        ) : null}
      </Menu>
    </>
  );
}
