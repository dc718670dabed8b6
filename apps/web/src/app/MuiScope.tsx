import { createContext, lazy, type ReactNode, useContext } from "react";
import { PageSuspense } from "./loading/PagePending";

/** True under the console's providers (MUI theme, query client): a nested MuiScope adds nothing. */
export const InsideConsole = createContext(false);

const ConsoleProviders = lazy(async () => ({
  default: (await import("./ConsoleProviders")).ConsoleProviders,
}));

/**
 * What an MUI part needs around it where the signed-out shell (plain CSS, ADR 018) shows it: the
 * registration page, the reset-password dialog and form. Fetched with the part; under the console's
 * shell it is a pass-through.
 */
export function MuiScope({ children }: { children: ReactNode }) {
  if (useContext(InsideConsole)) return children;
  return (
    <PageSuspense>
      <ConsoleProviders>{children}</ConsoleProviders>
    </PageSuspense>
  );
}
