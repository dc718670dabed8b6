import { ROUTES } from "@cellfleet/contract";
import { createBrowserRouter } from "react-router";
import { ShellWithBadges } from "../features/events/ShellWithBadges";
import { pageFor } from "./routePages";

/**
 * Every route of the contract's table under one shell. Access is not decided here: the shell's
 * RouteGuard applies the table to each location, including unknown paths (the catch-all).
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <ShellWithBadges />,
      children: [
        ...ROUTES.map((route) => ({ path: route.path, element: pageFor(route.name) })),
        { path: "*", element: null },
      ],
    },
  ]);
}
