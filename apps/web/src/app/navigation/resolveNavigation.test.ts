import { ROUTES } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { matchRoute, type NavigationUser, resolveNavigation } from "./resolveNavigation";

const root: NavigationUser = { role: 1, factory_password: false };
const admin: NavigationUser = { role: 2, factory_password: false };
const operator: NavigationUser = { role: 4, factory_password: false };
const factoryRoot: NavigationUser = { role: 1, factory_password: true };

describe("resolveNavigation", () => {
  it("sends anonymous visitors of protected routes to /login", () => {
    expect(resolveNavigation({ path: "/dashboard", user: null, previousPath: null })).toEqual({
      kind: "redirect",
      to: "/login",
      accessDenied: false,
    });
    expect(resolveNavigation({ path: "/logout", user: null, previousPath: null })).toMatchObject({
      to: "/login",
    });
  });

  it("lets anonymous visitors open the public views", () => {
    for (const path of ["/login", "/demo", "/registry"]) {
      expect(resolveNavigation({ path, user: null, previousPath: null }).kind).toBe("allow");
    }
  });

  it("holds a factory-password user on /profile with 'Access denied', but lets them log out", () => {
    expect(resolveNavigation({ path: "/accounting", user: factoryRoot, previousPath: "/profile" })).toEqual({
      kind: "redirect",
      to: "/profile",
      accessDenied: true,
    });
    expect(resolveNavigation({ path: "/profile", user: factoryRoot, previousPath: null }).kind).toBe("allow");
    expect(resolveNavigation({ path: "/logout", user: factoryRoot, previousPath: null }).kind).toBe("allow");
    expect(resolveNavigation({ path: "/nowhere", user: factoryRoot, previousPath: null })).toMatchObject({
      to: "/profile",
      accessDenied: false,
    });
  });

  it("keeps a user of the wrong role where it was", () => {
    expect(resolveNavigation({ path: "/templates", user: operator, previousPath: "/events?x=1" })).toEqual({
      kind: "deny",
      stayAt: "/events?x=1",
    });
    expect(resolveNavigation({ path: "/dashboard", user: root, previousPath: "/accounting" })).toEqual({
      kind: "deny",
      stayAt: "/accounting",
    });
  });

  it("sends a wrong role on a first load to the default page with 'Access denied'", () => {
    expect(resolveNavigation({ path: "/templates", user: operator, previousPath: null })).toEqual({
      kind: "redirect",
      to: "/dashboard",
      accessDenied: true,
    });
    // The remembered page is the denied one itself (the role changed): go to the default page.
    expect(
      resolveNavigation({ path: "/templates", user: operator, previousPath: "/templates" }),
    ).toMatchObject({
      kind: "redirect",
      to: "/dashboard",
    });
  });

  it("sends unknown paths to the default page: superuser /accounting, others /dashboard, anonymous /login", () => {
    expect(resolveNavigation({ path: "/no/such/page", user: root, previousPath: null })).toEqual({
      kind: "redirect",
      to: "/accounting",
      accessDenied: false,
    });
    expect(resolveNavigation({ path: "/", user: admin, previousPath: null })).toMatchObject({
      to: "/dashboard",
    });
    expect(resolveNavigation({ path: "/", user: null, previousPath: null })).toMatchObject({ to: "/login" });
  });

  it("sends a signed-in visitor of /login or /demo to the default page", () => {
    expect(resolveNavigation({ path: "/login", user: root, previousPath: null })).toMatchObject({
      to: "/accounting",
    });
    expect(resolveNavigation({ path: "/demo", user: operator, previousPath: null })).toMatchObject({
      to: "/dashboard",
    });
  });

  it("allows every route to the roles of its access list", () => {
    expect(resolveNavigation({ path: "/templates/new", user: admin, previousPath: null }).kind).toBe("allow");
    expect(resolveNavigation({ path: "/software/new", user: root, previousPath: null }).kind).toBe("allow");
    expect(resolveNavigation({ path: "/notFound", user: operator, previousPath: null }).kind).toBe("allow");
  });
});

describe("matchRoute", () => {
  it("prefers static segments over parameters", () => {
    expect(matchRoute("/software/new")?.name).toBe("softwareNew");
    expect(matchRoute("/software/abc")?.name).toBe("softwareEdit");
    expect(matchRoute("/templates/new")?.name).toBe("templateNew");
    expect(matchRoute("/notifications/transport/new")?.name).toBe("transportNew");
    expect(matchRoute("/device/edit/7")?.name).toBe("deviceEdit");
  });

  it("accepts only backup and journal as the class of a task", () => {
    expect(matchRoute("/backup/task/new")?.name).toBe("task");
    expect(matchRoute("/journal/task/42")?.name).toBe("task");
    expect(matchRoute("/other/task/42")).toBeNull();
  });

  it("finds every route of the contract table by its own path", () => {
    for (const route of ROUTES) {
      const path = route.path.replace(":class", "backup").replace(/:\w+/g, "x1");
      expect(matchRoute(path)?.name, route.path).toBe(route.name);
    }
  });
});
