import { canAccess } from "./account-roles";
import { mayOffer, type PermissionAction, type PermissionSubject } from "./permissions";
import type { Role, RouteAccess } from "./roles";

/** Who may open a route: a role list, anyone signed in, or the public (login views). */

/**
 * One row of the route table of spec section 2. `back` is where the toolbar's back button leads.
 * `access` is the spec's role list as data; `permission` is the action of the permission table
 * that the route opens, and a test keeps the two in agreement (public routes have none).
 */
export interface RouteRule {
  readonly name: string;
  readonly path: string;
  readonly access: RouteAccess;
  readonly permission?: PermissionAction;
  readonly back?: string;
}

const ALL: readonly Role[] = [1, 2, 3, 4];

/** The route table of spec section 2, with React Router path patterns. */
export const ROUTES = [
  { name: "dashboard", path: "/dashboard", permission: "devices.view", access: [2, 3, 4] },
  { name: "map", path: "/map", permission: "devices.view", access: [2, 3, 4] },
  { name: "accounting", path: "/accounting", permission: "accounting.view", access: ALL },
  { name: "domains", path: "/domains", permission: "domains.view", access: [1], back: "/accounting" },
  { name: "domainNew", path: "/domains/new", permission: "domains.manage", access: [1], back: "/domains" },
  { name: "domain", path: "/domain/:domain_id", permission: "domains.view", access: [1], back: "/domains" },
  {
    name: "domainAdmin",
    path: "/domain/:domain_id/admins/:user_id",
    permission: "domains.view",
    access: [1],
    back: "/domains",
  },
  {
    name: "superusers",
    path: "/superusers",
    permission: "superusers.view",
    access: [1],
    back: "/accounting",
  },
  {
    name: "superuser",
    path: "/superuser/:user_id",
    permission: "superusers.view",
    access: [1],
    back: "/superusers",
  },
  { name: "users", path: "/users", permission: "users.view", access: [1, 2, 3], back: "/accounting" },
  { name: "user", path: "/user/:user_id", permission: "users.view", access: [1, 2, 3], back: "/users" },
  { name: "policies", path: "/policies", permission: "policies.list", access: [1, 2], back: "/accounting" },
  {
    name: "policy",
    path: "/policy/:policy_id",
    permission: "policies.list",
    access: [1, 2],
    back: "/policies",
  },
  { name: "logs", path: "/logs", permission: "logs.view", access: [1, 2], back: "/accounting" },
  { name: "jobs", path: "/jobs", permission: "jobs.view", access: [1, 2], back: "/accounting" },
  {
    name: "task",
    path: "/:class/task/:task_id",
    permission: "crontab.manage",
    access: [2],
    back: "/settings",
  },
  {
    name: "notifications",
    path: "/notifications",
    permission: "notifications.view",
    access: ALL,
    back: "/accounting",
  },
  {
    name: "notificationRule",
    path: "/notifications/rule/:rule_id",
    permission: "notifications.view",
    access: ALL,
    back: "/notifications",
  },
  {
    name: "transportNew",
    path: "/notifications/transport/new",
    permission: "notifications.view",
    access: ALL,
    back: "/notifications",
  },
  {
    name: "transportEdit",
    path: "/notifications/transport/:transport_id/edit",
    permission: "notifications.view",
    access: ALL,
    back: "/notifications",
  },
  { name: "software", path: "/software", permission: "software.view", access: [1], back: "/accounting" },
  {
    name: "softwareNew",
    path: "/software/new",
    permission: "software.manage",
    access: [1],
    back: "/software",
  },
  {
    name: "softwareEdit",
    path: "/software/:software_id",
    permission: "software.manage",
    access: [1],
    back: "/software",
  },
  { name: "licenses", path: "/licenses", permission: "licenses.view", access: [1], back: "/accounting" },
  { name: "licenseNew", path: "/license/new", permission: "licenses.manage", access: [1], back: "/licenses" },
  { name: "login", path: "/login", access: "public" },
  { name: "demo", path: "/demo", access: "public" },
  { name: "registry", path: "/registry", access: "public" },
  { name: "logout", path: "/logout", permission: "account.self", access: "any" },
  { name: "profile", path: "/profile", permission: "account.self", access: ALL },
  { name: "settings", path: "/settings", permission: "account.self", access: ALL },
  {
    name: "devicesNew",
    path: "/devices/new/:mode",
    permission: "devices.create",
    access: [2],
    back: "/dashboard",
  },
  {
    name: "deviceEdit",
    path: "/device/edit/:dev_id",
    permission: "devices.view",
    access: [2, 3, 4],
    back: "/dashboard",
  },
  {
    name: "devicesMultiple",
    path: "/devices/multiple",
    permission: "devices.view",
    access: [2, 3, 4],
    back: "/dashboard",
  },
  {
    name: "device",
    path: "/device/:dev_id",
    permission: "devices.view",
    access: [2, 3, 4],
    back: "/dashboard",
  },
  { name: "events", path: "/events", permission: "events.view", access: [2, 3, 4] },
  { name: "scripts", path: "/scripts", permission: "scripts.view", access: [2, 3] },
  {
    name: "script",
    path: "/script/:script_id",
    permission: "scripts.edit",
    access: [1, 2, 3],
    back: "/scripts",
  },
  { name: "packages", path: "/packages", permission: "packages.view", access: [2, 3] },
  {
    name: "packageNew",
    path: "/packages/new",
    permission: "files.upload",
    access: [2, 3],
    back: "/packages",
  },
  {
    name: "package",
    path: "/package/:file_id",
    permission: "packages.view",
    access: [2, 3],
    back: "/packages",
  },
  { name: "firmwares", path: "/firmwares", permission: "firmwares.view", access: [2, 3] },
  {
    name: "firmwareNew",
    path: "/firmwares/new",
    permission: "files.upload",
    access: [2, 3],
    back: "/firmwares",
  },
  {
    name: "firmware",
    path: "/firmware/:file_id",
    permission: "firmwares.view",
    access: [2, 3],
    back: "/firmwares",
  },
  { name: "templates", path: "/templates", permission: "templates.view", access: [2, 3] },
  {
    name: "templateNew",
    path: "/templates/new",
    permission: "templates.edit",
    access: [2],
    back: "/templates",
  },
  {
    name: "template",
    path: "/template/:temp_id",
    permission: "templates.view",
    access: [2, 3],
    back: "/templates",
  },
  { name: "zeroTouch", path: "/zerotouch", permission: "zeroTouch.view", access: [2] },
  {
    name: "zeroTouchConfig",
    path: "/zerotouch/config/:config_id",
    permission: "zeroTouch.view",
    access: [2],
    back: "/zerotouch",
  },
  { name: "adoption", path: "/zerotouch/adoption", permission: "zeroTouch.view", access: [2] },
  { name: "commands", path: "/commands", permission: "commands.view", access: [2, 3, 4] },
  {
    name: "commandNew",
    path: "/commands/new",
    permission: "commands.create",
    access: [2, 3],
    back: "/commands",
  },
  {
    name: "command",
    path: "/command/:command_id",
    permission: "commands.view",
    access: [2, 3, 4],
    back: "/commands",
  },
  {
    name: "userCommand",
    path: "/user-command/:command_id",
    permission: "commandTypes.manage",
    access: [2],
    back: "/commands",
  },
  {
    name: "report",
    path: "/report/:device_id/:report_id",
    permission: "reports.view",
    access: [2, 3, 4],
    back: "/reports",
  },
  { name: "reports", path: "/reports", permission: "reports.view", access: [2, 3, 4] },
  { name: "uptime", path: "/uptime", permission: "uptime.view", access: [2, 3, 4] },
  { name: "deviceMonitor", path: "/monitor/devices", permission: "account.self", access: ALL },
  { name: "passwordMonitor", path: "/monitor/passwords", permission: "account.self", access: ALL },
  { name: "notFound", path: "/notFound", permission: "account.self", access: "any" },
] as const satisfies readonly RouteRule[];

export type RouteName = (typeof ROUTES)[number]["name"];

/** A signed-in person as the navigation rules see them. */
export interface ProfileHoldSubject {
  readonly role: Role;
  readonly factory_password: boolean;
  /** Must enrol a second factor first (ADR 039); absent counts as no. */
  readonly second_factor_pending?: boolean;
}

/** Whether a person may open only the profile page: the factory password, or a second factor to enrol. */
export function isHeldOnProfile(user: ProfileHoldSubject): boolean {
  return user.factory_password || user.second_factor_pending === true;
}

/** Where an unknown path, or a signed-in visitor of /login, is sent (spec section 2, navigation rules). */
export function defaultPathFor(user: ProfileHoldSubject | null): string {
  if (!user) return "/login";
  if (isHeldOnProfile(user)) return "/profile";
  // Superusers have no device views, so they land on accounting; the route table says who does.
  return canAccess(DASHBOARD_ACCESS, user.role) ? "/dashboard" : "/accounting";
}

const DASHBOARD_ACCESS: RouteAccess = ROUTES.find((route) => route.name === "dashboard")?.access ?? [];

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
  user: ProfileHoldSubject | null,
): RouteDecision {
  if (route.access === "public") return "allow";
  if (!user) return "login";
  if (isHeldOnProfile(user) && route.name !== "profile" && route.name !== "logout") return "profile";
  return canAccess(route.access, user.role) ? "allow" : "denied";
}

/** Entries of the side menu. */
export type MenuItemName =
  | "dashboard"
  | "map"
  | "events"
  | "uptime"
  | "commands"
  | "scripts"
  | "packages"
  | "firmwares"
  | "templates"
  | "settings"
  | "accounting";

/** The permission that shows each side-menu entry (spec section 2, read through the permission table). */
export const MENU_PERMISSIONS: Record<MenuItemName, PermissionAction> = {
  dashboard: "devices.view",
  map: "devices.view",
  events: "events.view",
  uptime: "uptime.view",
  commands: "commands.view",
  scripts: "scripts.view",
  packages: "packages.view",
  firmwares: "firmwares.view",
  templates: "templates.edit",
  // Thresholds, copies, the time zone, schedules, custom and event types (issue 27: only the user
  // menu reached them); superusers have no domain settings.
  settings: "settings.view",
  accounting: "administration.view",
};

const MENU_ORDER: readonly MenuItemName[] = [
  "dashboard",
  "map",
  "events",
  "uptime",
  "commands",
  "scripts",
  "packages",
  "firmwares",
  "templates",
  "settings",
  "accounting",
];

/** The side menu of spec section 2 for a person: the entries the permission table offers them. */
export function menuFor(subject: PermissionSubject): MenuItemName[] {
  return MENU_ORDER.filter((item) => mayOffer(subject, MENU_PERMISSIONS[item]));
}

/** The path each menu entry opens. */
export const MENU_PATHS: Record<MenuItemName, string> = {
  dashboard: "/dashboard",
  map: "/map",
  events: "/events",
  uptime: "/uptime",
  commands: "/commands",
  scripts: "/scripts",
  packages: "/packages",
  firmwares: "/firmwares",
  templates: "/templates",
  settings: "/settings",
  accounting: "/accounting",
};
