import type { Role } from "./roles";

/** Who may open a route: a role list, anyone signed in, or the public (login views). */
export type RouteAccess = readonly Role[] | "any" | "public";

/** One row of the route table of spec section 2. `back` is where the toolbar's back button leads. */
export interface RouteRule {
  readonly name: string;
  readonly path: string;
  readonly access: RouteAccess;
  readonly back?: string;
}

const ALL: readonly Role[] = [1, 2, 3, 4];

/** The route table of spec section 2, with React Router path patterns. */
export const ROUTES = [
  { name: "dashboard", path: "/dashboard", access: [2, 3, 4] },
  { name: "accounting", path: "/accounting", access: ALL },
  { name: "domains", path: "/domains", access: [1], back: "/accounting" },
  { name: "domainNew", path: "/domains/new", access: [1], back: "/domains" },
  { name: "domain", path: "/domain/:domain_id", access: [1], back: "/domains" },
  { name: "domainAdmin", path: "/domain/:domain_id/admins/:user_id", access: [1], back: "/domains" },
  { name: "superusers", path: "/superusers", access: [1], back: "/accounting" },
  { name: "superuser", path: "/superuser/:user_id", access: [1], back: "/superusers" },
  { name: "users", path: "/users", access: [1, 2, 3], back: "/accounting" },
  { name: "user", path: "/user/:user_id", access: [1, 2, 3], back: "/users" },
  { name: "policies", path: "/policies", access: [1, 2], back: "/accounting" },
  { name: "policy", path: "/policy/:policy_id", access: [1, 2], back: "/policies" },
  { name: "logs", path: "/logs", access: [1, 2], back: "/accounting" },
  { name: "task", path: "/:class/task/:task_id", access: [2], back: "/settings" },
  { name: "notifications", path: "/notifications", access: ALL, back: "/accounting" },
  { name: "notificationRule", path: "/notifications/rule/:rule_id", access: ALL, back: "/notifications" },
  { name: "transportNew", path: "/notifications/transport/new", access: ALL, back: "/notifications" },
  {
    name: "transportEdit",
    path: "/notifications/transport/:transport_id/edit",
    access: ALL,
    back: "/notifications",
  },
  { name: "software", path: "/software", access: [1], back: "/accounting" },
  { name: "softwareNew", path: "/software/new", access: [1], back: "/software" },
  { name: "softwareEdit", path: "/software/:software_id", access: [1], back: "/software" },
  { name: "licenses", path: "/licenses", access: [1], back: "/accounting" },
  { name: "licenseNew", path: "/license/new", access: [1], back: "/licenses" },
  { name: "login", path: "/login", access: "public" },
  { name: "demo", path: "/demo", access: "public" },
  { name: "registry", path: "/registry", access: "public" },
  { name: "logout", path: "/logout", access: "any" },
  { name: "profile", path: "/profile", access: ALL },
  { name: "settings", path: "/settings", access: ALL },
  { name: "devicesNew", path: "/devices/new/:mode", access: [2], back: "/dashboard" },
  { name: "deviceEdit", path: "/device/edit/:dev_id", access: [2, 3, 4], back: "/dashboard" },
  { name: "devicesMultiple", path: "/devices/multiple", access: [2, 3, 4], back: "/dashboard" },
  { name: "device", path: "/device/:dev_id", access: [2, 3, 4], back: "/dashboard" },
  { name: "events", path: "/events", access: [2, 3, 4] },
  { name: "scripts", path: "/scripts", access: [2, 3] },
  { name: "script", path: "/script/:script_id", access: [1, 2, 3], back: "/scripts" },
  { name: "packages", path: "/packages", access: [2, 3] },
  { name: "templates", path: "/templates", access: [2, 3] },
  { name: "templateNew", path: "/templates/new", access: [2], back: "/templates" },
  { name: "template", path: "/template/:temp_id", access: [2, 3], back: "/templates" },
  { name: "commands", path: "/commands", access: [2, 3, 4] },
  { name: "commandNew", path: "/commands/new", access: [2, 3], back: "/commands" },
  { name: "command", path: "/command/:command_id", access: [2, 3, 4], back: "/commands" },
  { name: "userCommand", path: "/user-command/:command_id", access: [2], back: "/commands" },
  { name: "report", path: "/report/:device_id/:report_id", access: [2, 3, 4], back: "/reports" },
  { name: "reports", path: "/reports", access: [2, 3, 4] },
  { name: "deviceMonitor", path: "/monitor/devices", access: ALL },
  { name: "passwordMonitor", path: "/monitor/passwords", access: ALL },
  { name: "notFound", path: "/notFound", access: "any" },
] as const satisfies readonly RouteRule[];

export type RouteName = (typeof ROUTES)[number]["name"];

/** Whether a signed-in user of `role` may open a route with this access rule. */
export function canAccess(access: RouteAccess, role: Role | null): boolean {
  if (access === "public") return true;
  if (role === null) return false;
  if (access === "any") return true;
  return access.includes(role);
}

/** Where an unknown path, or a signed-in visitor of /login, is sent (spec section 2, navigation rules). */
export function defaultPathFor(user: { role: Role; factory_password: boolean } | null): string {
  if (!user) return "/login";
  if (user.factory_password) return "/profile";
  return user.role === 1 ? "/accounting" : "/dashboard";
}

/** What opening a route leads to: the route, the login page, the profile page, or 'Access denied' in place. */
export type RouteDecision = "allow" | "login" | "profile" | "denied";

/**
 * The navigation rules of spec section 2 for one route: public routes are open to all; anonymous
 * visitors of any other go to /login; while the factory password is unchanged only the profile (and
 * logout) can be opened, anything else leads to /profile; a role outside the route's list is denied
 * (the web shows 'Access denied' and stays where it was).
 */
export function decideRoute(
  route: Pick<RouteRule, "name" | "access">,
  user: { role: Role; factory_password: boolean } | null,
): RouteDecision {
  if (route.access === "public") return "allow";
  if (!user) return "login";
  if (user.factory_password && route.name !== "profile" && route.name !== "logout") return "profile";
  return canAccess(route.access, user.role) ? "allow" : "denied";
}

/** Entries of the side menu. */
export type MenuItemName = "dashboard" | "events" | "commands" | "scripts" | "templates" | "accounting";

/** The side menu of spec section 2 for a role: superusers see only Accounting. */
export function menuFor(role: Role): MenuItemName[] {
  if (role === 1) return ["accounting"];
  const items: MenuItemName[] = ["dashboard", "events", "commands"];
  if (role !== 4) items.push("scripts");
  if (role === 2) items.push("templates");
  if (role !== 4) items.push("accounting");
  return items;
}

/** The path each menu entry opens. */
export const MENU_PATHS: Record<MenuItemName, string> = {
  dashboard: "/dashboard",
  events: "/events",
  commands: "/commands",
  scripts: "/scripts",
  templates: "/templates",
  accounting: "/accounting",
};
