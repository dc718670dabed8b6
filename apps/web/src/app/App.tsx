import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { BrowserRouter } from "react-router";
import { queryClient } from "./queryClient";
import { AppRoutes } from "./router";
import { refreshSession } from "./session/session.api";
import { buildTheme, useThemeMode } from "./theme";

/** Providers and the router. On start, the stored user is refreshed from the server. */
export function App() {
  const mode = useThemeMode();
  const theme = useMemo(() => buildTheme(mode), [mode]);

  useEffect(() => {
    // /logout is about to end the session; refreshing it there would only race the logout.
    if (window.location.pathname === "/logout") return;
    refreshSession().catch(() => {
      // The transport has already handled it (a dead token logs out; other errors are shown).
    });
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
