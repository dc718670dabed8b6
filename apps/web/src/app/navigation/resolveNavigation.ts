import {
  decideRoute,
  defaultPathFor,
  ROUTES,
  type RouteName,
  type RouteRule,
  type SessionUser,
} from "@cellfleet/contract";
import { matchRoutes } from "react-router";

/** The parts of the session user that decide where a person may go. */
export type NavigationUser = Pick<SessionUser, "role" | "factory_password" | "second_factor_pending">;

export interface NavigationInput {
  /** The path being opened, without query or hash. */
  path: string;
  user: NavigationUser | null;
  /** The last page (path, query and hash) this person was allowed to see in this visit, if any. */
  previousPath: string | null;
}

export type NavigationDecision =
  | { kind: "allow"; route: RouteRule & { name: RouteName } }
  | { kind: "redirect"; to: string; accessDenied: boolean }
  | { kind: "deny"; stayAt: string };

/** Route names shown to signed-out visitors; a signed-in visitor is sent on to the default page. */
const LOGIN_VIEWS: readonly RouteName[] = ["login", "demo"];
/** Values the `class` segment of /{class}/task/{task_id} may take (spec section 2). */
const TASK_CLASSES = ["backup", "journal"];

function pathOf(href: string): string {
  return href.split(/[?#]/)[0] ?? href;
}

const ROUTE_OBJECTS = ROUTES.map((rule) => ({ path: rule.path, rule }));

/** The contract route a path opens, by React Router's own ranking (static segments win), or null. */
export function matchRoute(path: string): (RouteRule & { name: RouteName }) | null {
  const matches = matchRoutes(ROUTE_OBJECTS, path);
  const match = matches?.[matches.length - 1];
  if (!match) return null;
  const rule = match.route.rule;
  if (rule.name === "task" && !TASK_CLASSES.includes(match.params.class ?? "")) return null;
  return rule;
}

/**
 * The navigation rules of spec section 2 as one decision for the web, around the contract's
 * `decideRoute`: unknown path → default page; a signed-in visitor of /login or /demo → default page;
 * anonymous → /login; factory password → /profile with 'Access denied'; a role outside the route's
 * list → 'Access denied' and stay where it was (or the default page on a first load).
 */
export function resolveNavigation({ path, user, previousPath }: NavigationInput): NavigationDecision {
  const route = matchRoute(path);
  if (!route) return { kind: "redirect", to: defaultPathFor(user), accessDenied: false };
  if (user && LOGIN_VIEWS.includes(route.name)) {
    return { kind: "redirect", to: defaultPathFor(user), accessDenied: false };
  }
  switch (decideRoute(route, user)) {
    case "allow":
      return { kind: "allow", route };
    case "login":
      return { kind: "redirect", to: "/login", accessDenied: false };
    case "profile":
      return { kind: "redirect", to: "/profile", accessDenied: true };
    case "denied":
      if (user && previousPath && pathOf(previousPath) !== path)
        return { kind: "deny", stayAt: previousPath };
      return { kind: "redirect", to: defaultPathFor(user), accessDenied: true };
  }
}
