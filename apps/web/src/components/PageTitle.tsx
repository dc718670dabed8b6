import Typography from "@mui/material/Typography";
import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";

let currentTitle: string | null = null;
const listeners = new Set<() => void>();

function setCurrentTitle(title: string | null): void {
  currentTitle = title;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The heading of the page on screen, so a card inside it need not say the same again ("Domains / Domains"). */
export function usePageTitle(): string | null {
  return useSyncExternalStore(subscribe, () => currentTitle);
}

/** Two headings say the same when they differ only in case and surrounding space. */
export function isSameTitle(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

/** A page's heading (data-testid page-title); it also names the browser tab. */
export function PageTitle({ children }: { children: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${children} · ${t("app.name")}`;
  }, [children, t]);
  useEffect(() => {
    setCurrentTitle(children);
    return () => setCurrentTitle(null);
  }, [children]);
  return (
    <Typography data-testid="page-title" variant="h5" component="h1" sx={{ mb: 2, fontWeight: 600 }}>
      {children}
    </Typography>
  );
}
