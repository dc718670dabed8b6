import { MOBILE_BREAKPOINT, TOOLBAR_HIDE_SCROLL_PX } from "@cellfleet/contract";
import { type RefObject, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { RouteGuard } from "../navigation/RouteGuard";
import { matchRoute } from "../navigation/resolveNavigation";
import { Icon } from "./icons";
import { LoadingBar } from "./LoadingBar";
import { SignedOutMenu } from "./SignedOutMenu";
import { SignedOutMessage } from "./SignedOutMessage";
import "./theme.css";
import "./shell.css";
import "./field.css";
import "./page.css";

const WIDE = `(min-width:${MOBILE_BREAKPOINT}px)`;
function subscribeWide(listener: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}
const isWideNow = () => window.matchMedia(WIDE).matches;

/** MUI's useScrollTrigger: true once scrolled down past the threshold, false on scrolling up. */
function useScrolledAway(): boolean {
  const [isAway, setAway] = useState(false);
  useEffect(() => {
    let last = window.scrollY;
    const onScroll = () => {
      const now = window.scrollY;
      setAway(now > last && now > TOOLBAR_HIDE_SCROLL_PX);
      last = now;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return isAway;
}

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex='-1'])";

/**
 * MUI's modal focus handling for the narrow drawer: focus moves into the dialog when it opens, Tab
 * and Shift+Tab stay inside it (on the dialog itself when nothing in it takes focus), and the element
 * that had focus before gets it back when the dialog closes.
 */
function useFocusTrap(dialog: RefObject<HTMLDivElement | null>, isOpen: boolean): void {
  useEffect(() => {
    const root = dialog.current;
    if (!isOpen || !root) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    root.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Tab") return;
      const inside = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = inside[0] ?? root;
      const last = inside.at(-1) ?? root;
      const active = document.activeElement;
      if (event.shiftKey ? active === first || active === root : active === last || !root.contains(active)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      before?.focus();
    };
  }, [dialog, isOpen]);
}

function DrawerContent() {
  const { t } = useTranslation();
  return (
    <div data-testid="nav-drawer" style={{ width: 290 }}>
      <div className="so-toolbar so-drawer-head">
        <Icon name="router" />
        <div className="so-h6 so-bold">{t("app.name")}</div>
      </div>
      <hr className="so-divider" />
      <div className="so-drawer-welcome">
        <h6 className="so-h6 so-gutter">{t("drawer.welcomeTitle")}</h6>
        <p className="so-body2">{t("drawer.welcomeText")}</p>
      </div>
    </div>
  );
}

/**
 * The frame of the signed-out pages (/login, /demo, /registry) without MUI (ADR 018, round 4): the
 * same toolbar, drawer with its welcome text, footer, loading bar and messages as the console's
 * AppShell shows a visitor, in plain markup and CSS. The console's shell loads after sign-in.
 */
export function SignedOutShell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isWide = useSyncExternalStore(subscribeWide, isWideNow, isWideNow);
  const isScrolledAway = useScrolledAway();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const back = matchRoute(pathname)?.back;
  const dialog = useRef<HTMLDivElement>(null);
  useFocusTrap(dialog, isMenuOpen && !isWide);

  // A page change closes the temporary menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a path change on purpose
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!isMenuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [isMenuOpen]);

  const barClass = `so-appbar${isWide ? " so-appbar--beside" : ""}${isScrolledAway ? " so-appbar--hidden" : ""}`;
  return (
    <div className="so-root">
      <LoadingBar />
      <header className={barClass}>
        <div className="so-toolbar">
          {isWide ? null : (
            <button
              type="button"
              className="so-icon-button so-icon-button--inherit so-icon-button--start"
              aria-label={t("toolbar.openMenu")}
              onClick={() => setMenuOpen(true)}
            >
              <Icon name="menu" />
            </button>
          )}
          {back ? (
            <span className="so-tooltip">
              <button
                type="button"
                className="so-icon-button so-icon-button--inherit"
                aria-label={t("toolbar.back")}
                onClick={() => navigate(back)}
              >
                <Icon name="back" />
              </button>
              <span className="so-tooltip-text" aria-hidden="true">
                {t("toolbar.back")}
              </span>
            </span>
          ) : null}
          {isWide ? null : <div className="so-h6 so-bold">{t("app.name")}</div>}
          <div className="so-grow" />
          <SignedOutMenu />
        </div>
      </header>
      {isWide ? (
        <div className="so-drawer-docked">
          <div className="so-drawer-paper">
            <DrawerContent />
          </div>
        </div>
      ) : (
        <div className="so-modal" hidden={!isMenuOpen}>
          <div className="so-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />
          <div
            ref={dialog}
            className="so-drawer-paper"
            role="dialog"
            aria-modal="true"
            aria-label={t("app.name")}
            tabIndex={-1}
          >
            <DrawerContent />
          </div>
        </div>
      )}
      <main className="so-main">
        <div className="so-toolbar" />
        <div className="so-content">
          <RouteGuard />
        </div>
        <footer className="so-footer">
          <p className="so-body2">{t("footer.copyright", { year: new Date().getFullYear() })}</p>
        </footer>
      </main>
      <SignedOutMessage />
    </div>
  );
}
