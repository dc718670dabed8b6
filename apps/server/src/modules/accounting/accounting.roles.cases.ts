import { DEFAULT_POLICY, rolesAllowed } from "@cellfleet/contract";
import { buildDomain, buildPolicy, buildUser, uniqueName } from "../../test/factories";
import type { TestApp } from "../../test/test-app";

// The accounting routes of the role matrix (accounting.roles.test.ts), each with the roles the
// permission table lets through (checked against spec section 6 in the contract's own test) and a
// way to build a call whose target lies in the caller's domain.

/** One accounting route of the matrix. */
export interface RouteCase {
  name: string;
  method: "POST" | "DELETE";
  /** Roles let through, read from the permission table (the junior assistant is a role 3). */
  roles: number[];
  saves: boolean;
  /** Builds the call's path and body in the caller's domain (null for superusers). */
  prepare(domainId: string | null): Promise<{ url: string; payload?: object }>;
}

/** A password the matrix sends in bodies; no audit entry may contain it. */
export const SECRET = "Matrix-secret-pass-1";

/** The matrix's app and home domain, filled in by the test's beforeAll before any case runs. */
export interface MatrixEnv {
  t: TestApp;
  /** Stands in for the superusers' missing domain. */
  homeDomain: string;
}

/** Every accounting route of the matrix. */
export function accountingRouteCases(env: MatrixEnv): RouteCase[] {
  const newUserBody = () => ({ username: uniqueName("mx"), full_name: "M X", role: 4, password: SECRET });
  const anyDomain = async (domainId: string | null) => domainId ?? env.homeDomain;
  const { is_default: _d, ...policyFields } = DEFAULT_POLICY;

  return [
    {
      name: "users list",
      method: "POST",
      roles: rolesAllowed("users.view"),
      saves: false,
      prepare: async () => ({ url: "/api/users/", payload: {} }),
    },
    {
      name: "user create",
      method: "POST",
      roles: rolesAllowed("users.create"),
      saves: true,
      prepare: async (d) => ({
        url: "/api/user/new",
        payload: { ...newUserBody(), domain_id: await anyDomain(d) },
      }),
    },
    {
      name: "user read",
      method: "POST",
      roles: rolesAllowed("users.view"),
      saves: false,
      prepare: async (d) => ({
        url: `/api/user/${(await buildUser(env.t, { role: 4, domainId: await anyDomain(d) })).id}`,
        payload: {},
      }),
    },
    {
      name: "user update",
      method: "POST",
      roles: rolesAllowed("users.edit"),
      saves: true,
      prepare: async (d) => ({
        url: `/api/user/${(await buildUser(env.t, { role: 4, domainId: await anyDomain(d) })).id}`,
        payload: { full_name: "Changed", password: SECRET },
      }),
    },
    {
      name: "user delete",
      method: "DELETE",
      roles: rolesAllowed("users.delete"),
      saves: true,
      prepare: async (d) => ({
        url: `/api/user/${(await buildUser(env.t, { role: 4, domainId: await anyDomain(d) })).id}`,
      }),
    },
    {
      name: "domains list",
      method: "POST",
      roles: rolesAllowed("domains.view"),
      saves: false,
      prepare: async () => ({ url: "/api/domains/", payload: {} }),
    },
    {
      name: "domain create",
      method: "POST",
      roles: rolesAllowed("domains.manage"),
      saves: true,
      prepare: async () => ({
        url: "/api/domains/new",
        payload: { name: uniqueName("d"), full_name: "D", tin: "123456789" },
      }),
    },
    {
      name: "domain read",
      method: "POST",
      roles: rolesAllowed("domains.view"),
      saves: false,
      prepare: async () => ({ url: `/api/domain/${(await buildDomain(env.t)).id}`, payload: {} }),
    },
    {
      name: "domain update",
      method: "POST",
      roles: rolesAllowed("domains.manage"),
      saves: true,
      prepare: async () => ({
        url: `/api/domain/${(await buildDomain(env.t)).id}`,
        payload: { manager: "M", create_time: 1_700_000_000_000 },
      }),
    },
    {
      name: "admins list",
      method: "POST",
      roles: rolesAllowed("domains.view"),
      saves: false,
      prepare: async () => ({ url: `/api/domain/${(await buildDomain(env.t)).id}/admins/`, payload: {} }),
    },
    {
      name: "admin create",
      method: "POST",
      roles: rolesAllowed("domains.manage"),
      saves: true,
      prepare: async () => ({
        url: `/api/domain/${(await buildDomain(env.t)).id}/admins/new`,
        payload: { username: uniqueName("adm"), full_name: "A", password: SECRET },
      }),
    },
    {
      name: "admin update",
      method: "POST",
      roles: rolesAllowed("domains.manage"),
      saves: true,
      prepare: async () => {
        const admin = await buildUser(env.t, { role: 2 });
        return { url: `/api/domain/${admin.domainId}/admins/${admin.id}`, payload: { full_name: "B" } };
      },
    },
    {
      name: "admin delete",
      method: "DELETE",
      roles: rolesAllowed("domains.manage"),
      saves: true,
      prepare: async () => {
        const admin = await buildUser(env.t, { role: 2 });
        return { url: `/api/domain/${admin.domainId}/admins/${admin.id}` };
      },
    },
    {
      name: "superusers list",
      method: "POST",
      roles: rolesAllowed("superusers.view"),
      saves: false,
      prepare: async () => ({ url: "/api/superusers/", payload: {} }),
    },
    {
      name: "superuser create",
      method: "POST",
      roles: rolesAllowed("superusers.manage"),
      saves: true,
      prepare: async () => ({
        url: "/api/superuser/new",
        payload: { username: uniqueName("su"), full_name: "S", password: SECRET },
      }),
    },
    {
      name: "superuser update",
      method: "POST",
      roles: rolesAllowed("superusers.manage"),
      saves: true,
      prepare: async () => ({
        url: `/api/superuser/${(await buildUser(env.t, { role: 1 })).id}`,
        payload: { full_name: "S2" },
      }),
    },
    {
      name: "superuser delete",
      method: "DELETE",
      roles: rolesAllowed("superusers.manage"),
      saves: true,
      prepare: async () => ({ url: `/api/superuser/${(await buildUser(env.t, { role: 1 })).id}` }),
    },
    {
      name: "policies list",
      method: "POST",
      roles: rolesAllowed("policies.list"),
      saves: false,
      prepare: async () => ({ url: "/api/policies/", payload: {} }),
    },
    {
      name: "domain policies",
      method: "POST",
      roles: rolesAllowed("policies.list"),
      saves: false,
      prepare: async () => ({ url: "/api/accounting/domain", payload: {} }),
    },
    {
      name: "policy create",
      method: "POST",
      roles: rolesAllowed("policies.create"),
      saves: true,
      prepare: async () => ({ url: "/api/policy/new", payload: { ...policyFields, name: uniqueName("p") } }),
    },
    {
      name: "policy read",
      method: "POST",
      roles: rolesAllowed("policies.view"),
      saves: false,
      prepare: async (d) => ({
        url: `/api/policy/${await buildPolicy(env.t, await anyDomain(d))}`,
        payload: {},
      }),
    },
    {
      name: "policy update",
      method: "POST",
      roles: rolesAllowed("policies.edit"),
      saves: true,
      prepare: async (d) => ({
        url: `/api/policy/${await buildPolicy(env.t, await anyDomain(d))}`,
        payload: { inactivity_minutes: 30 },
      }),
    },
    {
      name: "web actions",
      method: "POST",
      roles: rolesAllowed("logs.view"),
      saves: false,
      prepare: async () => ({ url: "/api/web_actions/", payload: {} }),
    },
    {
      name: "web actions export",
      method: "POST",
      roles: rolesAllowed("logs.view"),
      saves: false,
      prepare: async () => ({ url: "/api/web_actions/export", payload: {} }),
    },
  ];
}
