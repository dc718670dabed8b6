import { useEffect } from "react";
import { BrowserRouter } from "react-router";
import { AppRoutes } from "./router";
import { refreshSession } from "./session/session.api";

/**
 * The router. The frame is chosen by the session (router.tsx): plain markup for a visitor, the MUI
 * console (its theme, query client and shell, one lazy chunk) once someone is signed in (ADR 018).
 * On start, the stored user is refreshed from the server.
 */
export function App() {
  useEffect(() => {
    // /logout is about to end the session; refreshing it there would only race the logout.
    if (window.location.pathname === "/logout") return;
    refreshSession().catch(() => {
      // The transport has already handled it (a dead token logs out; other errors are shown).
    });
  }, []);

  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
