import AccountCircleIcon from "@mui/icons-material/AccountCircle";
import IconButton from "@mui/material/IconButton";
import { lazy, type MouseEvent, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";

// The menu (MUI's Menu, Popover and Modal) is fetched on the first click, then kept mounted so it
// closes with its animation: the start-up bundle carries only the button (ADR 018).
const UserMenuList = lazy(async () => ({ default: (await import("./UserMenuList")).UserMenuList }));

/** The toolbar's user menu button; its entries are in UserMenuList. */
export function UserMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [hasOpened, setHasOpened] = useState(false);

  const handleOpen = (event: MouseEvent<HTMLElement>) => {
    setHasOpened(true);
    setAnchor(event.currentTarget);
  };

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
      {hasOpened ? (
        <Suspense fallback={null}>
          <UserMenuList anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
