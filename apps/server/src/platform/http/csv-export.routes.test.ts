import { randomBytes, randomUUID } from "node:crypto";
import { CSV_EXPORTS, type CsvExportSection, csvExportPath, type Role } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, buildEvent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { toJsonb } from "../db/schema";
import { parseCsvRows } from "./csv";

// Every CSV export of spec section 7 (POST {path}/export, ADR 024), one table of cases: anonymous
// 401, a role the list refuses 403, a bad filter 400, and the happy path: the list's columns, the
// caller's rows only (another domain's absent), formula cells guarded, and the platform's CSV
// reader giving back exactly what was stored (the devices import goes through the real import in
// devices-csv.routes.test.ts).

type Caller = "admin" | "operator" | "root";

interface ExportCase {
  section: CsvExportSection;
  /** Who downloads the list. */
  caller: Caller;
  /** Someone the permission table refuses the list (none: the list is everyone's). */
  refused: Caller | null;
  badBody: object;
  /** Stores a row of the domain whose text cell is `text`. */
  seed: (domainId: string, text: string) => Promise<void>;
}

let t: TestApp;
let domainId: string;
let otherDomainId: string;
let adminId: string;
const tokens = new Map<Caller | "otherAdmin", string>();

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  otherDomainId = (await buildDomain(t)).id;
  const admin = await buildUser(t, { role: 2, domainId });
  adminId = admin.id;
  tokens.set("admin", await signIn(t.app, admin));
  tokens.set("operator", await signIn(t.app, await buildUser(t, { role: 4, domainId })));
  tokens.set("root", await signIn(t.app, await buildUser(t, { role: 1 })));
  tokens.set("otherAdmin", await signIn(t.app, await buildUser(t, { role: 2, domainId: otherDomainId })));
});
afterAll(async () => {
  await t.close();
});

const now = () => t.clock.now();

const cases: ExportCase[] = [
  {
    section: "devices",
    caller: "operator",
    refused: "root",
    badBody: { status: ["nope"] },
    seed: async (domain, text) => void (await buildDevice(t, domain, { description: text })),
  },
  {
    section: "events",
    caller: "operator",
    refused: "root",
    badBody: { since: -1 },
    seed: async (domain, text) => void (await buildEvent(t, domain, { message: text })),
  },
  {
    section: "commands",
    caller: "operator",
    refused: "root",
    badBody: { status: ["nope"] },
    seed: async (domain, text) => {
      await t.db
        .insertInto("commands")
        .values({
          id: randomUUID(),
          domain_id: domain,
          type: "reboot",
          wire_type: "reboot",
          args: toJsonb({}),
          file_id: null,
          targets: toJsonb({ devices: [], tags: ["north"], all: false }),
          status: "completed",
          needs_approval: false,
          author_id: adminId,
          author_name: text,
          author_role: 2 as Role,
          author_is_junior: false,
          approver_id: null,
          approver_name: null,
          declined_reason: null,
          delayed_until: null,
          run_until: null,
          total: 0,
          counts: toJsonb({}),
          create_time: now(),
          update_time: now(),
        } as never)
        .execute();
    },
  },
  {
    section: "files",
    caller: "operator",
    refused: "root",
    badBody: { file_type: "nope" },
    seed: async (domain, text) => {
      await t.db
        .insertInto("files")
        .values({
          id: randomBytes(12).toString("hex"),
          domain_id: domain,
          file_type: "file",
          filename: text,
          size: 10,
          sha256: "0".repeat(64),
          status: "completed",
          user_id: null,
          device_id: null,
          command_id: null,
          execution_id: null,
          repeat_time: null,
          create_time: now(),
        })
        .execute();
    },
  },
  {
    section: "users",
    caller: "admin",
    refused: "operator",
    badBody: { role: 9 },
    seed: async (domain, text) => void (await buildUser(t, { role: 3, domainId: domain, fullName: text })),
  },
  {
    section: "domains",
    caller: "root",
    refused: "admin",
    badBody: { search: 5 },
    // Domains are the superuser's list across domains: the seeded one is found, nothing to hide.
    seed: async (_domain, text) => void (await buildDomain(t, { full_name: text })),
  },
  {
    section: "rules",
    caller: "admin",
    refused: null,
    badBody: { search: 5 },
    seed: async (domain, text) => {
      await t.db
        .insertInto("notification_rules")
        .values({
          id: randomUUID(),
          domain_id: domain,
          name: text,
          monitor: "device_connected",
          check_delay: null,
          variables: toJsonb({}),
          transport_id: null,
          filter_tags: toJsonb(["north"]),
          filter_levels: toJsonb([]),
          timer_next_at: null,
          author_id: null,
          create_time: now(),
          update_time: now(),
        })
        .execute();
    },
  },
  {
    section: "logs",
    caller: "admin",
    refused: "operator",
    badBody: { status: ["nope"] },
    seed: async (domain, text) => {
      await t.db
        .insertInto("web_actions")
        .values({
          domain_id: domain,
          author_id: null,
          author: text,
          action: "login",
          status: "SUCCESS",
          create_time: now(),
          client_ip: null,
          info: toJsonb({}),
        })
        .execute();
    },
  },
];

function post(section: CsvExportSection, token: string | undefined, payload: object = {}) {
  return t.app.inject({
    method: "POST",
    url: csvExportPath(section),
    ...(token ? { headers: { token } } : {}),
    payload,
  });
}

describe.each(cases)("POST /api/…/export: $section", (spec) => {
  it("refuses the anonymous (401) and a role the list refuses (403)", async () => {
    expect((await post(spec.section, undefined)).statusCode).toBe(401);
    if (spec.refused) {
      const refused = await post(spec.section, tokens.get(spec.refused));
      expect(refused.statusCode, refused.body).toBe(403);
    }
  });

  it("answers a bad filter 400 with its code", async () => {
    const response = await post(spec.section, tokens.get(spec.caller), spec.badBody);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe("BAD_REQUEST");
  });

  it("answers the caller's rows as CSV, formulas guarded, another domain's rows absent", async () => {
    const mark = randomBytes(4).toString("hex");
    const mine = `=SUM(1+1)-${mark}`;
    const theirs = `theirs-${mark}`;
    await spec.seed(domainId, mine);
    if (spec.section !== "domains") await spec.seed(otherDomainId, theirs);
    const response = await post(spec.section, tokens.get(spec.caller));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="${CSV_EXPORTS[spec.section].filename}"`,
    );
    const rows = parseCsvRows(response.body);
    expect(rows[0]?.fields.length).toBeGreaterThan(2);
    // The file a spreadsheet opens holds the cell as text, never as a formula.
    expect(response.body).toContain(`'=SUM(1+1)-${mark}`);
    expect(response.body).not.toMatch(new RegExp(`(^|,|\\n)=SUM\\(1\\+1\\)-${mark}`));
    // What the export wrote, the CSV reader gives back as it was stored.
    expect(rows.some((row) => row.fields.includes(mine))).toBe(true);
    expect(response.body).not.toContain(theirs);
  });
});

describe("keyset paging", () => {
  it("exports every event of more than two pages created in the same millisecond, once each", async () => {
    const own = (await buildDomain(t)).id;
    const token = await signIn(t.app, await buildUser(t, { role: 4, domainId: own }));
    const at = now();
    const values = Array.from({ length: 2_345 }, (_, index) => ({
      domain_id: own,
      device_id: null,
      kind: "router_started",
      level: "info" as const,
      message: `event ${index}`,
      is_read: false,
      create_time: at,
    }));
    await t.db.insertInto("events").values(values).execute();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/events/export",
      headers: { token },
      payload: { limit: 10 },
    });
    expect(response.statusCode).toBe(200);
    const messages = parseCsvRows(response.body)
      .slice(1)
      .map((row) => row.fields[4]);
    expect(messages).toHaveLength(2_345);
    expect(new Set(messages).size).toBe(2_345);
  });
});

describe("the spec's EXPORT method", () => {
  it("is refused by Node's HTTP parser before any route runs, so each export is documented as its POST", async () => {
    const { METHODS } = await import("node:http");
    expect(METHODS).not.toContain("EXPORT");
    const document = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    for (const section of Object.keys(CSV_EXPORTS) as CsvExportSection[]) {
      const operation = document.paths[csvExportPath(section)]?.post;
      expect(operation?.summary, section).toContain(`EXPORT ${CSV_EXPORTS[section].path}`);
    }
  });
});

describe("POST /api/licenses/export", () => {
  it("answers the installation's licences to root only, as the list shows them", async () => {
    const key = randomBytes(32).toString("hex");
    await t.db
      .insertInto("licenses")
      .values({
        id: randomUUID(),
        key,
        document: null,
        signature: null,
        last_error: null,
        check_time: null,
        update_time: null,
        activation_date: null,
        create_time: now(),
      })
      .execute();
    expect((await post("licenses", undefined)).statusCode).toBe(401);
    expect((await post("licenses", tokens.get("admin"))).statusCode).toBe(403);
    const response = await post("licenses", tokens.get("root"));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-disposition"]).toBe('attachment; filename="licenses.csv"');
    const rows = parseCsvRows(response.body);
    expect(rows[0]?.fields).toEqual([
      "license_id",
      "status",
      "error",
      "update_time",
      "valid_from",
      "valid_until",
      "activation_date",
      "devices",
    ]);
    const row = rows.find((candidate) => candidate.fields[0]?.startsWith(key.slice(0, 8).toUpperCase()));
    expect(row?.fields[1]).toBe("pending");
  });
});

describe("POST /api/firmwares/export", () => {
  it("answers the software rules to root only, as the list shows them, formulas guarded", async () => {
    const mark = randomBytes(4).toString("hex");
    await t.db
      .insertInto("software_rules")
      .values({
        id: randomUUID(),
        name: `=HYPERLINK("x")-${mark}`,
        url: `http://127.0.0.1/RUT9_R_00.07.${mark}.bin`,
        models: toJsonb(["RUT955", "RUT950"]),
        status: 0,
        error: null,
        sync_time: null,
        file_key: null,
        filename: null,
        size: null,
        sha256: null,
        create_time: now(),
        update_time: now(),
      })
      .execute();
    expect((await post("firmwares", undefined)).statusCode).toBe(401);
    expect((await post("firmwares", tokens.get("admin"))).statusCode).toBe(403);
    const response = await post("firmwares", tokens.get("root"));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-disposition"]).toBe('attachment; filename="firmwares.csv"');
    expect(response.body).toContain(`'=HYPERLINK`);
    const rows = parseCsvRows(response.body);
    expect(rows[0]?.fields.slice(0, 6)).toEqual(["name", "url", "status", "error", "series", "models"]);
    const row = rows.find((candidate) => candidate.fields[1]?.includes(mark));
    expect(row?.fields.slice(2, 6)).toEqual(["0", "", "RUT9", "RUT955 RUT950"]);
  });
});
