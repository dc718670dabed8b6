import { createTheme, type Theme } from "@mui/material/styles";
import type { ThemeMode } from "./themeMode";

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
