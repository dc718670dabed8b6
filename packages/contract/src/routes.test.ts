import { describe, expect, it } from "vitest";
import {
  ALL_ROLES,
  canAccess,
  decideRoute,
  defaultPathFor,
  ERROR_CODES,
  httpStatusForCode,
  MENU_PATHS,
  menuFor,
  type PermissionAction,
  ROUTES,
  type Role,
  type RouteName,
  type RouteRule,
  roleLabelKey,
  rolesAllowed as rolesPermitted,
} from "./index";

function accessOf(name: RouteName) {
  const route = ROUTES.find((entry) => entry.name === name);
  if (!route) throw new Error(`no route ${name}`);
  return route.access;
}

function rolesAllowed(name: RouteName): Role[] {
  return ALL_ROLES.filter((role) => canAccess(accessOf(name), role));
}

describe("route table (spec section 2)", () => {
  it.each<[RouteName, Role[]]>([
    ["dashboard", [2, 3, 4]],
    ["accounting", [1, 2, 3, 4]],
    ["domain", [1]],
    ["domainNew", [1]],
    ["domainAdmin", [1]],
    ["superuser", [1]],
    ["user", [1, 2, 3]],
    ["policy", [1, 2]],
    ["jobs", [1, 2]],
    ["task", [2]],
    ["notificationRule", [1, 2, 3, 4]],
    ["transportNew", [1, 2, 3, 4]],
    ["transportEdit", [1, 2, 3, 4]],
    ["softwareNew", [1]],
    ["softwareEdit", [1]],
    ["licenseNew", [1]],
    ["profile", [1, 2, 3, 4]],
    ["settings", [1, 2, 3, 4]],
    ["devicesNew", [2]],
    ["deviceEdit", [2, 3, 4]],
    ["devicesMultiple", [2, 3, 4]],
    ["device", [2, 3, 4]],
    ["events", [2, 3, 4]],
    ["scripts", [2, 3]],
    ["packages", [2, 3]],
    ["packageNew", [2, 3]],
    ["package", [2, 3]],
    ["firmwares", [2, 3]],
    ["firmwareNew", [2, 3]],
    ["firmware", [2, 3]],
    ["script", [1, 2, 3]],
    ["templates", [2, 3]],
    ["templateNew", [2]],
    ["template", [2, 3]],
    ["commands", [2, 3, 4]],
    ["commandNew", [2, 3]],
    ["command", [2, 3, 4]],
    ["userCommand", [2]],
    ["report", [2, 3, 4]],
    ["reports", [2, 3, 4]],
  ])("%s is open to roles %j", (name, roles) => {
    expect(rolesAllowed(name)).toEqual(roles);
    expect(canAccess(accessOf(name), null)).toBe(false);
  });

  it("keeps login, demo and registry public", () => {
    for (const name of ["login", "demo", "registry"] as const) {
      expect(canAccess(accessOf(name), null)).toBe(true);
      expect(rolesAllowed(name)).toEqual([1, 2, 3, 4]);
    }
  });

  it("opens logout and notFound to anyone signed in", () => {
    for (const name of ["logout", "notFound"] as const) {
      expect(rolesAllowed(name)).toEqual([1, 2, 3, 4]);
      expect(canAccess(accessOf(name), null)).toBe(false);
    }
  });

  it("has unique names and paths, and back routes that exist", () => {
    const paths = new Set(ROUTES.map((route) => route.path));
    expect(new Set(ROUTES.map((route) => route.name)).size).toBe(ROUTES.length);
    expect(paths.size).toBe(ROUTES.length);
    for (const route of ROUTES) if ("back" in route) expect(paths.has(route.back)).toBe(true);
  });
});

describe("defaultPathFor", () => {
  it("sends visitors to login, factory passwords to profile, superusers to accounting, others to dashboard", () => {
    expect(defaultPathFor(null)).toBe("/login");
    expect(defaultPathFor({ role: 2, factory_password: true })).toBe("/profile");
    expect(defaultPathFor({ role: 1, factory_password: true })).toBe("/profile");
    expect(defaultPathFor({ role: 1, factory_password: false })).toBe("/accounting");
    for (const role of [2, 3, 4] as const) {
      expect(defaultPathFor({ role, factory_password: false })).toBe("/dashboard");
    }
  });
});

describe("decideRoute", () => {
  const route = (name: RouteName) => ({ name, access: accessOf(name) });

  it("lets everyone open public routes", () => {
    expect(decideRoute(route("login"), null)).toBe("allow");
    expect(decideRoute(route("registry"), { role: 4, factory_password: false })).toBe("allow");
  });

  it("sends anonymous visitors of protected routes to login", () => {
    expect(decideRoute(route("dashboard"), null)).toBe("login");
    expect(decideRoute(route("profile"), null)).toBe("login");
  });

  it("allows only the profile (and logout) while the factory password is unchanged", () => {
    const user = { role: 2 as const, factory_password: true };
    expect(decideRoute(route("profile"), user)).toBe("allow");
    expect(decideRoute(route("logout"), user)).toBe("allow");
    expect(decideRoute(route("dashboard"), user)).toBe("profile");
    expect(decideRoute(route("settings"), user)).toBe("profile");
  });

  it("denies a role outside the list", () => {
    expect(decideRoute(route("dashboard"), { role: 1, factory_password: false })).toBe("denied");
    expect(decideRoute(route("templateNew"), { role: 3, factory_password: false })).toBe("denied");
    expect(decideRoute(route("templateNew"), { role: 2, factory_password: false })).toBe("allow");
  });
});

describe("menuFor (side menu)", () => {
  const person = (role: Role, is_junior = false) => ({
    _id: "u",
    role,
    is_junior,
    is_demo: false,
    plugins: [],
  });

  it("shows the superuser only Accounting", () => {
    expect(menuFor(person(1))).toEqual(["accounting"]);
  });

  it("shows admins everything, templates included", () => {
    expect(menuFor(person(2))).toEqual([
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
    ]);
  });

  it("shows assistants, junior or not, no templates", () => {
    expect(menuFor(person(3))).toEqual([
      "dashboard",
      "map",
      "events",
      "uptime",
      "commands",
      "scripts",
      "packages",
      "firmwares",
      "settings",
      "accounting",
    ]);
    expect(menuFor(person(3, true))).toEqual(menuFor(person(3)));
  });

  it("shows the demo user (an admin) an admin's menu", () => {
    expect(menuFor({ ...person(2), is_demo: true })).toEqual(menuFor(person(2)));
  });

  it("shows operators no scripts, accounting or templates; their settings page is there (issue 27)", () => {
    expect(menuFor(person(4))).toEqual(["dashboard", "map", "events", "uptime", "commands", "settings"]);
  });

  it("shows templates only to role 2", () => {
    expect(ALL_ROLES.filter((role) => menuFor(person(role)).includes("templates"))).toEqual([2]);
  });

  it("only lists entries whose route the role may open", () => {
    for (const role of ALL_ROLES) {
      for (const item of menuFor(person(role))) {
        const target = ROUTES.find((entry) => entry.path === MENU_PATHS[item]);
        expect(target && canAccess(target.access, role)).toBe(true);
      }
    }
  });
});

describe("route table and permission table agree", () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))("%s", (_name, route: RouteRule) => {
    if (route.access === "public") {
      expect(route.permission).toBeUndefined();
      return;
    }
    expect(route.permission, "every protected route names its action").toBeDefined();
    const action = route.permission as PermissionAction;
    expect(ALL_ROLES.filter((role) => canAccess(route.access, role))).toEqual(rolesPermitted(action));
  });
});

describe("roleLabelKey", () => {
  it("labels 1 root, 2 admin, 3 offer, 4 operator, else anonymous", () => {
    expect([1, 2, 3, 4, 0, 5].map(roleLabelKey)).toEqual([
      "root",
      "admin",
      "offer",
      "operator",
      "anonymous",
      "anonymous",
    ]);
  });
});

describe("httpStatusForCode", () => {
  it("answers token problems with 401", () => {
    for (const code of [
      "TOKEN_NOT_GIVEN",
      "TOKEN_INVALID",
      "TOKEN_HAS_EXPIRED",
      "INACTIVITY_TIMEOUT",
    ] as const) {
      expect(httpStatusForCode(code)).toBe(401);
    }
  });

  it("answers permission problems with 403 and missing things with 404", () => {
    expect(httpStatusForCode("ACCESS_DENIED")).toBe(403);
    expect(httpStatusForCode("DEMO_PERMISSIONS_DENIED")).toBe(403);
    expect(httpStatusForCode("DEVICE_NOT_FOUND")).toBe(404);
    expect(httpStatusForCode("REPORT_NOT_FOUND")).toBe(404);
  });

  it("answers conflicts with 409, size with 413, rate with 429, failures with 500 and the tunnel with 502", () => {
    expect(httpStatusForCode("DEVICE_ALREADY_EXIST")).toBe(409);
    expect(httpStatusForCode("TRANSPORT_IS_USED")).toBe(409);
    expect(httpStatusForCode("WRITE_DATA_FAILED")).toBe(500);
    expect(httpStatusForCode("PEER_NOT_CONNECTED")).toBe(502);
  });

  it("answers everything else with 400", () => {
    expect(httpStatusForCode("BAD_REQUEST")).toBe(400);
    expect(httpStatusForCode("PASSWORD_INVALID_NO_DIGITS")).toBe(400);
    expect(httpStatusForCode("PASSWORD_CHANGE_NOT_ALLOWED_5_MINUTES")).toBe(400);
  });

  it("holds only the codes of spec section 8: no invented generic ones", () => {
    for (const invented of ["NOT_FOUND", "INTERNAL_ERROR", "TOO_MANY_REQUESTS", "PAYLOAD_TOO_LARGE"])
      expect(ERROR_CODES as readonly string[]).not.toContain(invented);
  });

  it("gives every code a status an HTTP client understands", () => {
    for (const code of ERROR_CODES)
      expect([400, 401, 403, 404, 409, 413, 429, 500, 502]).toContain(httpStatusForCode(code));
  });
});
