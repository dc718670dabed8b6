import { createTheme, type Theme } from "@mui/material/styles";
import { useSyncExternalStore } from "react";

export type ThemeMode = "light" | "dark";

/** Where the theme choice is remembered. */
export const THEME_STORAGE_KEY = "cellfleet.theme";

const shared = {
  shape: { borderRadius: 8 },
  typography: { fontFamily: '"Roboto", "Segoe UI", "Helvetica Neue", Arial, sans-serif' },
} as const;

/** Light: a pale grey-blue page; dark: a deep navy page. The two backgrounds differ clearly. */
export function buildTheme(mode: ThemeMode): Theme {
  if (mode === "dark") {
    return createTheme({
      ...shared,
      palette: {
        mode: "dark",
        primary: { main: "#64b5f6" },
        secondary: { main: "#4db6ac" },
        background: { default: "#0e1621", paper: "#17212e" },
      },
    });
  }
  return createTheme({
    ...shared,
    palette: {
      mode: "light",
      primary: { main: "#1565c0" },
      secondary: { main: "#00897b" },
      background: { default: "#eef2f6", paper: "#ffffff" },
    },
  });
}

function readMode(): ThemeMode {
  try {
    return globalThis.localStorage?.getItem(THEME_STORAGE_KEY) === "dark" ? "dark" : "light";
  } catch {
    return "light";
  }
}

let mode: ThemeMode = readMode();
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
    for (const listener of listeners) listener();
  },
};

export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(themeModeStore.subscribe, themeModeStore.get, themeModeStore.get);
}
