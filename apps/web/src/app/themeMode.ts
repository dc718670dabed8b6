import { useSyncExternalStore } from "react";

/**
 * The theme choice, without MUI: the signed-out shell (plain CSS, ADR 018) and the console's MUI
 * theme (theme.ts) both follow it. The choice is also written to `<html data-theme>`, which the
 * signed-out shell's stylesheet reads.
 */
export type ThemeMode = "light" | "dark";

/** Where the theme choice is remembered. */
export const THEME_STORAGE_KEY = "cellfleet.theme";

function readMode(): ThemeMode {
  try {
    return globalThis.localStorage?.getItem(THEME_STORAGE_KEY) === "dark" ? "dark" : "light";
  } catch {
    return "light";
  }
}

let mode: ThemeMode = readMode();

function mark(): void {
  if (typeof document !== "undefined") document.documentElement.dataset.theme = mode;
}
mark();
const listeners = new Set<() => void>();

export const themeModeStore = {
  get: (): ThemeMode => mode,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  toggle(): void {
    mode = mode === "light" ? "dark" : "light";
    globalThis.localStorage?.setItem(THEME_STORAGE_KEY, mode);
    mark();
    for (const listener of listeners) listener();
  },
};

export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(themeModeStore.subscribe, themeModeStore.get, themeModeStore.get);
}
