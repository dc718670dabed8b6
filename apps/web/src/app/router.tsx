import { ROUTES } from "@cellfleet/contract";
import { lazy, Suspense } from "react";
import { Route, Routes } from "react-router";
import { withTexts } from "./i18n";
import { PagePending } from "./loading/PagePending";
import { pageFor } from "./routePages";
import { useSession } from "./session/useSession";
import { LoadingBar } from "./signedOut/LoadingBar";
import { SignedOutShell } from "./signedOut/SignedOutShell";

// The MUI console (theme, query client, drawer with the menu, toolbar with the news bell): fetched
// once someone is signed in, with the texts it adds to the start texts; /login and the other
// signed-out pages never load it (ADR 018, rounds 4 and 5).
const ConsoleShell = lazy(async () => ({
  default: (await withTexts("consoleShell", () => import("./ConsoleShell"))).ConsoleShell,
}));

/** The visitor's plain frame, or the signed-in console once there is a session. */
function Frame() {
  const user = useSession();
  if (!user) return <SignedOutShell />;
  return (
    <Suspense
      fallback={
        <div className="so-root">
          <PagePending>
            <LoadingBar />
          </PagePending>
        </div>
      }
    >
      <ConsoleShell />
    </Suspense>
  );
}

/**
 * Every route of the contract's table under one frame. Access is not decided here: the frame's
 * RouteGuard applies the table to each location, including unknown paths (the catch-all).
 * Declarative routes (no data router: nothing uses loaders or actions), which keeps React Router's
 * data-router code out of the start-up bundle (ADR 018).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Frame />}>
        {ROUTES.map((route) => (
          <Route key={route.name} path={route.path} element={pageFor(route.name)} />
        ))}
        <Route path="*" element={null} />
      </Route>
    </Routes>
  );
}
