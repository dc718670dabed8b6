import { ERROR_CODES } from "@cellfleet/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { ApiRouteEntry } from "../auth/permissions";

// Issue 11: every route × malformed input, generated from the app's own route registry, so a new
// route joins by being registered. No answer is a 5xx, every refusal is `{ code, message }` with a
// catalogued code, and nothing in the database changes.

/** Stands in for every path parameter: well-formed, and nobody's row. */
const NOBODY = "00000000-0000-4000-8000-000000000000";
const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

/** Malformed bodies as raw JSON text: wrong types, arrays for objects, nesting, huge, NUL, surrogates, __proto__. */
const BODIES: [string, string][] = [
  ["an array", "[]"],
  ["an array of objects", "[{}]"],
  ["a string", '"text"'],
  ["a number", "12"],
  ["a boolean", "true"],
  [
    "wrong types everywhere",
    JSON.stringify({
      ident: 123,
      username: [],
      full_name: {},
      password: 5,
      policy_id: "",
      domain_id: "",
      device_id: "",
      tags: "x",
      ids: "x",
      _id: null,
      name: null,
      page: -1,
      size: "big",
      role: "root",
      active: "yes",
      settings: [],
    }),
  ],
  [
    "nulls",
    JSON.stringify({ ident: null, username: null, tags: null, ids: null, name: null, settings: null }),
  ],
  ["deep nesting", deep(200)],
  ["a 1 MB string", JSON.stringify({ ident: "a".repeat(1_000_000), name: "x" })],
  ["a NUL", '{"name":"a\\u0000b","ident":"\\u0000","username":"\\u0000"}'],
  ["a lone surrogate", '{"name":"Ghost \\ud800","full_name":"\\udc00","description":"\\ud800"}'],
  ["__proto__", '{"__proto__":{"role":1,"isAdmin":true},"constructor":{"prototype":{"x":1}}}'],
];

// Tables a refused call must leave as they were (web_actions gains FAILURE entries; sessions are touched).
const WATCHED_TABLES = [
  "users",
  "domains",
  "security_policies",
  "devices",
  "events",
  "files",
  "jobs",
  "notification_transports",
  "notification_rules",
  "email_codes",
  "sign_in_devices",
] as const;

let t: TestApp;
let routes: ApiRouteEntry[];
const tokens: [string, string][] = [];

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  // Sign-out would end the caller's session and the socket is not HTTP: every other route is probed.
  // Sockets are spoken to by an upgrade, not a request (the realtime socket, a terminal).
  routes = t.app.apiRoutes.filter((route) => !route.isWebSocket && !/\/logout/.test(route.url));
  const domainId = (await buildDomain(t)).id;
  tokens.push(["superuser", await signIn(t.app, await buildUser(t, { role: 1 }))]);
  tokens.push(["admin", await signIn(t.app, await buildUser(t, { role: 2, domainId }))]);
}, 60_000);
afterAll(async () => {
  await t.close();
});

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of WATCHED_TABLES) {
    const { rows } = await sql<{ digest: string | null }>`
      select md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as digest from ${sql.table(table)} x`.execute(
      t.db,
    );
    parts.push(`${table}:${rows[0]?.digest}`);
  }
  return parts.join(" ");
}

function urlOf(route: ApiRouteEntry, query = ""): string {
  return `${route.url.replace(/:[A-Za-z_]+/g, NOBODY).replace(/\*$/, NOBODY)}${query}`;
}

function expectCleanRefusal(where: string, status: number, text: string): void {
  expect(status, `${where}: ${text.slice(0, 300)}`).toBeLessThan(500);
  if (status < 400) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  expect(body, where).toEqual({ code: expect.any(String), message: expect.any(String) });
  expect(ERROR_CODES as readonly string[], where).toContain((body as { code: string }).code);
}

describe("every route refuses malformed input cleanly", () => {
  it("answers no 5xx, only catalogued codes, and changes nothing", async () => {
    expect(routes.length).toBeGreaterThan(50);
    const before = await snapshot();
    for (const route of routes) {
      for (const [caller, token] of tokens) {
        const where = `${route.method} ${route.url} as ${caller}`;
        if (route.method === "GET" || route.method === "DELETE") {
          for (const query of ["?x=%00", "?search=%ED%A0%80", `?size=-1&page=abc&ids=${"a".repeat(5000)}`]) {
            const response = await t.app.inject({
              method: route.method,
              url: urlOf(route, query),
              headers: { token },
            });
            expectCleanRefusal(`${where} ${query.slice(0, 20)}`, response.statusCode, response.body);
          }
          continue;
        }
        for (const [what, payload] of BODIES) {
          const response = await t.app.inject({
            method: route.method as "POST" | "PUT" | "PATCH",
            url: urlOf(route),
            headers: { token, "content-type": "application/json" },
            payload,
          });
          expectCleanRefusal(`${where} with ${what}`, response.statusCode, response.body);
        }
      }
    }
    await t.app.auditLog.settle();
    expect(await snapshot()).toBe(before);
  }, 300_000);
});
