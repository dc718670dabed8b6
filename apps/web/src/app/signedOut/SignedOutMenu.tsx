import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLocale, setLocale } from "../i18n";
import { themeModeStore, useThemeMode } from "../themeMode";
import { Icon } from "./icons";

/**
 * The toolbar's user menu as a signed-out visitor has it (spec section 2): the language and theme
 * toggles. The same roles and keys as MUI's Menu: it opens on the first item, arrows move, Escape
 * or a click outside closes it and gives focus back to the button.
 */
export function SignedOutMenu() {
  const { t } = useTranslation();
  const mode = useThemeMode();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);

  useEffect(() => {
    if (place) list.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
  }, [place]);

  const open = () => {
    const rect = button.current?.getBoundingClientRect();
    if (rect) setPlace({ top: rect.bottom, right: Math.max(16, window.innerWidth - rect.right) });
  };
  const close = () => {
    setPlace(null);
    button.current?.focus();
  };
  const choose = (action: () => void) => () => {
    action();
    close();
  };
  const handleKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(list.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      close();
    }
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="so-icon-button so-icon-button--inherit"
        aria-label={t("userMenu.label")}
        aria-haspopup="menu"
        aria-controls={place ? "user-menu" : undefined}
        aria-expanded={place ? "true" : undefined}
        onClick={open}
      >
        <Icon name="account" />
      </button>
      {place ? (
        <>
          <div className="so-menu-backdrop" aria-hidden="true" onClick={close} />
          <div
            ref={list}
            id="user-menu"
            role="menu"
            tabIndex={-1}
            className="so-menu"
            style={{ top: place.top, right: place.right }}
            onKeyDown={handleKey}
          >
            <button
              type="button"
              role="menuitem"
              tabIndex={0}
              className="so-menu-item"
              data-testid="toggle-language"
              onClick={choose(() => setLocale(currentLocale() === "ru" ? "en" : "ru"))}
            >
              <span className="so-menu-icon">
                <Icon name="translate" small />
              </span>
              <span className="so-body1">{t("userMenu.switchLanguage")}</span>
            </button>
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="so-menu-item"
              data-testid="toggle-theme"
              onClick={choose(() => themeModeStore.toggle())}
            >
              <span className="so-menu-icon">
                <Icon name={mode === "light" ? "darkMode" : "lightMode"} small />
              </span>
              <span className="so-body1">
                {mode === "light" ? t("userMenu.darkTheme") : t("userMenu.lightTheme")}
              </span>
            </button>
          </div>
        </>
      ) : null}
    </>
  );
}
