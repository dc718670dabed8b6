import {
  apiTokenActionsFor,
  decide,
  isSavingAction,
  type PermissionAction,
  type PermissionSubject,
  PLUGINS,
  type Role,
} from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { ApiRouteEntry } from "./permissions";

// The role matrix generated from the permission table and the app's own route registry: every
// guarded /api route, called by every kind of caller, must answer as the table says. A new route
// that names no action, or whose action disagrees with its `saves`, fails here. API tokens (ADR 040)
// are callers too: an admin's and an assistant's, each carrying every other action its person may
// give, so the matrix checks that a token does what it carries and its person may, and nothing else.
// People limited to tags (ADR 041) and an admin's token narrowed to a tag are callers too: a scope
// narrows which routers, not which actions, except those the table marks `wholeDomain`.

type Person =
  | "superuser"
  | "admin"
  | "helper"
  | "junior"
  | "operator"
  | "demo"
  | "limited helper"
  | "limited junior"
  | "limited operator";
type TokenCaller = "admin token" | "helper token" | "scoped admin token";
type Caller = "anonymous" | Person | TokenCaller;
const CALLERS: Caller[] = [
  "anonymous",
  "superuser",
  "admin",
  "helper",
  "junior",
  "operator",
  "demo",
  "limited helper",
  "limited junior",
  "limited operator",
  "admin token",
  "helper token",
  "scoped admin token",
];
const TOKEN_OWNER: Record<TokenCaller, "admin" | "helper"> = {
  "admin token": "admin",
  "helper token": "helper",
  "scoped admin token": "admin",
};
const TOKEN_CALLERS = Object.keys(TOKEN_OWNER) as TokenCaller[];
const isTokenCaller = (caller: Caller): caller is TokenCaller =>
  TOKEN_CALLERS.includes(caller as TokenCaller);
/** The tag scope of each limited caller (ADR 041). */
const TAG_SCOPE: Partial<Record<Caller, string[]>> = {
  "limited helper": ["north"],
  "limited junior": ["north"],
  "limited operator": ["north"],
  "scoped admin token": ["north"],
};
const PERSON: Record<Person, { role: Role; is_junior: boolean; is_demo: boolean }> = {
  superuser: { role: 1, is_junior: false, is_demo: false },
  admin: { role: 2, is_junior: false, is_demo: false },
  helper: { role: 3, is_junior: false, is_demo: false },
  junior: { role: 3, is_junior: true, is_demo: false },
  operator: { role: 4, is_junior: false, is_demo: false },
  demo: { role: 2, is_junior: false, is_demo: true },
  "limited helper": { role: 3, is_junior: false, is_demo: false },
  "limited junior": { role: 3, is_junior: true, is_demo: false },
  "limited operator": { role: 4, is_junior: false, is_demo: false },
};
/** Stands in for every path parameter: well-formed, and nobody's row. */
const NOBODY = "00000000-0000-4000-8000-000000000000";
/** A body that a read-or-save route takes as a save (`saves` looks for fields; the profile's for its own). */
const SAVING_BODY = { full_name: "Matrix probe" };

let t: TestApp;
let routes: ApiRouteEntry[];
const tokens = new Map<Caller, string>();
const users = new Map<Caller, { username: string; password: string }>();
/** The actions each token caller carries: every other one its person may give a token. */
const grants = new Map<TokenCaller, string[]>();

beforeAll(async () => {
  t = await createTestApp();
  routes = t.app.apiRoutes.filter((route) => !route.isPublic);
  const domainId = (await buildDomain(t)).id;
  for (const caller of [
    "superuser",
    "admin",
    "helper",
    "junior",
    "operator",
    "limited helper",
    "limited junior",
    "limited operator",
  ] as const) {
    const user = await buildUser(t, {
      role: PERSON[caller].role,
      domainId,
      isJunior: PERSON[caller].is_junior,
      tagScope: TAG_SCOPE[caller],
    });
    users.set(caller, user);
    tokens.set(caller, await signIn(t.app, user));
  }
  tokens.set("demo", await signInDemo(t.app));
  for (const caller of TOKEN_CALLERS) {
    const owner = TOKEN_OWNER[caller];
    const carried = apiTokenActionsFor(subjectOf(owner)).filter((_, index) => index % 2 === 0);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/tokens/new",
      headers: { token: tokens.get(owner) ?? "" },
      payload: {
        name: `matrix ${caller}`,
        expires_at: t.clock.now().getTime() + 86_400_000,
        permissions: carried,
        tag_scope: TAG_SCOPE[caller] ?? [],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    tokens.set(caller, response.json().token as string);
    grants.set(caller, carried);
  }
});
afterAll(async () => {
  await t.close();
});

function subjectOf(caller: Exclude<Caller, "anonymous">): PermissionSubject {
  const limited = TAG_SCOPE[caller] ? { is_tag_limited: true } : {};
  if (isTokenCaller(caller)) {
    return { ...subjectOf(TOKEN_OWNER[caller]), grants: grants.get(caller) ?? [], ...limited };
  }
  return { _id: `matrix-${caller}`, plugins: [...PLUGINS], ...PERSON[caller], ...limited };
}

/** The calls the matrix makes for a route: one per action it can perform, with a body that picks it. */
function variantsOf(route: ApiRouteEntry): { action: PermissionAction; body: object }[] {
  const permission = route.permission;
  if (permission === undefined) return [];
  if (typeof permission === "string") return [{ action: permission, body: {} }];
  return [
    { action: permission.read, body: {} },
    { action: permission.save, body: SAVING_BODY },
  ];
}

describe("the route registry", () => {
  it("holds the app's guarded routes", () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.map((route) => `${route.method} ${route.url}`)).toContain("POST /api/devices/new");
  });

  it("has a permission action on every route that is not public", () => {
    const undeclared = routes.filter((route) => route.permission === undefined);
    expect(undeclared.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it("pairs saving actions with routes that save, so the audit and the demo refusal agree", () => {
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const permission = route.permission;
      if (permission === undefined) continue;
      if (typeof permission === "string") {
        expect(isSavingAction(permission), name).toBe(route.saves === true);
      } else {
        expect(typeof route.saves, name).toBe("function");
        expect(isSavingAction(permission.read), name).toBe(false);
        expect(isSavingAction(permission.save), name).toBe(true);
      }
    }
  });
});

describe("every guarded route × every caller answers as the permission table says", () => {
  it.each(CALLERS)("as %s", async (caller) => {
    const failures: string[] = [];
    for (const route of routes) {
      const url = route.url.replace(/:[A-Za-z_]+/g, NOBODY);
      for (const { action, body } of variantsOf(route)) {
        const token = tokens.get(caller);
        const headers = isTokenCaller(caller) ? { authorization: `Bearer ${token}` } : { token };
        const response = await t.app.inject({
          method: route.method as "GET" | "POST" | "DELETE",
          url,
          ...(token === undefined ? {} : { headers }),
          ...(route.method === "GET" ? {} : { payload: body }),
        });
        // CSV and NDJSON answers are not one JSON document; only refusals need their code read.
        const code = response.statusCode >= 400 ? (response.json() as { code?: string }).code : undefined;
        const seen = `${response.statusCode} ${code ?? ""}`.trim();
        const name = `${route.method} ${route.url} (${action})`;
        if (caller === "anonymous") {
          if (response.statusCode !== 401) failures.push(`${name}: ${seen}, expected 401`);
          continue;
        }
        const decision = decide(subjectOf(caller), action);
        if (decision === "deny" && seen !== "403 PERMISSION_DENIED") {
          failures.push(`${name}: ${seen}, expected 403 PERMISSION_DENIED`);
        } else if (decision === "demo" && seen !== "403 DEMO_PERMISSIONS_DENIED") {
          failures.push(`${name}: ${seen}, expected 403 DEMO_PERMISSIONS_DENIED`);
        } else if (decision === "allow" && (response.statusCode === 401 || response.statusCode === 403)) {
          failures.push(`${name}: ${seen}, expected the table's leave (not 401/403)`);
        }
        // Signing out ends the session the matrix goes on using: sign in again.
        if (url.startsWith("/api/logout") && response.statusCode === 200 && !isTokenCaller(caller)) {
          const user = users.get(caller);
          tokens.set(caller, user ? await signIn(t.app, user) : await signInDemo(t.app));
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
