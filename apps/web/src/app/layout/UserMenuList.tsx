import DarkModeIcon from "@mui/icons-material/DarkMode";
import LightModeIcon from "@mui/icons-material/LightMode";
import LogoutIcon from "@mui/icons-material/Logout";
import PersonIcon from "@mui/icons-material/Person";
import SettingsIcon from "@mui/icons-material/Settings";
import TranslateIcon from "@mui/icons-material/Translate";
import Divider from "@mui/material/Divider";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { currentLocale, setLocale } from "../i18n";
import { useOffers } from "../session/useOffers";
import { useSession } from "../session/useSession";
import { themeModeStore, useThemeMode } from "../theme";

interface UserMenuListProps {
  anchor: HTMLElement | null;
  onClose: () => void;
}

/**
 * The user menu's entries (spec section 2): profile, settings (not for superusers), language ru/en,
 * theme, logout; signed out, only the language and theme toggles. Its own chunk, fetched on the
 * first click of the toolbar's button (ADR 018).
 */
export function UserMenuList({ anchor, onClose }: UserMenuListProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession();
  const offers = useOffers();
  const mode = useThemeMode();

  const handleGo = (path: string) => {
    onClose();
    navigate(path);
  };
  const handleToggleLanguage = () => setLocale(currentLocale() === "ru" ? "en" : "ru");
  const handleToggleTheme = () => themeModeStore.toggle();

  return (
    <Menu
      id="user-menu"
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
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
  );
}
