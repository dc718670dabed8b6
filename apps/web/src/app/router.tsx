import { ROUTES } from "@cellfleet/contract";
import { Route, Routes } from "react-router";
import { ShellWithBadges } from "../features/events/ShellWithBadges";
import { pageFor } from "./routePages";

/**
 * Every route of the contract's table under one shell. Access is not decided here: the shell's
 * RouteGuard applies the table to each location, including unknown paths (the catch-all).
 * Declarative routes (no data router: nothing uses loaders or actions), which keeps React Router's
 * data-router code out of the start-up bundle (ADR 018).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<ShellWithBadges />}>
        {ROUTES.map((route) => (
          <Route key={route.name} path={route.path} element={pageFor(route.name)} />
        ))}
        <Route path="*" element={null} />
      </Route>
    </Routes>
  );
}
