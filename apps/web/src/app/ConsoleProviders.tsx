import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { InsideConsole } from "./MuiScope";
import { queryClient } from "./queryClient";
import { buildTheme } from "./theme";
import { useThemeMode } from "./themeMode";

/** The console's providers: the MUI theme of the current mode, its baseline, the query client. */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  const mode = useThemeMode();
  const theme = useMemo(() => buildTheme(mode), [mode]);
  return (
    <InsideConsole.Provider value={true}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme}>
          <CssBaseline enableColorScheme />
          {children}
        </ThemeProvider>
      </QueryClientProvider>
    </InsideConsole.Provider>
  );
}
