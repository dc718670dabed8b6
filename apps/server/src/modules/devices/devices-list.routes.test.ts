import {
  computeDeviceStatus,
  DEFAULT_DOMAIN_SETTINGS,
  DEVICE_SORT_FIELDS,
  type Device,
  type DeviceListRequest,
  signalQualityFromCsq,
} from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { toDeviceDto } from "./devices.mapper";
import { devicesListRepo } from "./devices-list.repo";
import { LIST_COUNT_TTL_MS } from "./list-count-cache";

let t: TestApp;
let token: string;
let otherToken: string;
let nowMs: number;
let domainId: string;

const MINUTE = 60_000;
// Contact ages around the default thresholds (online ≤ 15 min, warning ≤ 60 min), null = never.
const AGES = [null, MINUTE, 15 * MINUTE, 15 * MINUTE + 1, 60 * MINUTE, 60 * MINUTE + 1, 24 * 60 * MINUTE];
const MODELS = ["RUT955", "RUT240", null];
const MODES = ["LTE", "LTE", "3G", "5G", null];
const CSQS = [null, 5, 12, 17, 25, 99];

interface Seeded {
  ident: string;
  description: string;
  tags: string[];
  lastContact: number | null;
  model: string | null;
  firmware: string;
  mode: string | null;
  csq: number | null;
  backups: boolean;
  journals: boolean;
  unread: number;
}
const seeded: Seeded[] = [];

beforeAll(async () => {
  t = await createTestApp();
  nowMs = t.clock.now().getTime();
  const domain = await buildDomain(t);
  domainId = domain.id;
  const other = await buildDomain(t);
  token = await signIn(t.app, await buildUser(t, { role: 4, domainId: domain.id }));
  otherToken = await signIn(t.app, await buildUser(t, { role: 2, domainId: other.id }));
  const prefix = uniqueDeviceIdent("L");
  for (let i = 0; i < 30; i++) {
    const age = AGES[i % AGES.length] ?? null;
    const tags = [
      ...(i % 2 === 0 ? ["north"] : []),
      ...(i % 3 === 0 ? ["pumps"] : []),
      ...(i % 4 === 0 ? ["подвал"] : []),
    ];
    const device: Seeded = {
      ident: `${prefix}${String(i).padStart(2, "0")}`,
      description: i === 7 ? "a_b gate" : i === 8 ? "axb gate" : `Site ${i}`,
      tags,
      lastContact: age === null ? null : nowMs - age,
      model: MODELS[i % MODELS.length] ?? null,
      firmware: i % 2 === 0 ? "1.0.0" : "2.1.0",
      mode: MODES[i % MODES.length] ?? null,
      csq: CSQS[i % CSQS.length] ?? null,
      backups: i % 4 === 0,
      journals: i % 5 === 0,
      unread: i % 7 === 0 ? 2 : 0,
    };
    seeded.push(device);
    await buildDevice(t, domain.id, {
      ident: device.ident,
      description: device.description,
      tags,
      last_contact: device.lastContact === null ? null : new Date(device.lastContact),
      model: device.model,
      firmware: device.firmware,
      serial: `SN${i}`,
      network_mode: device.mode,
      signal_csq: device.csq,
      has_backups: device.backups,
      has_journals: device.journals,
      events_total: device.unread,
      create_time: new Date(nowMs - i * 1000),
    });
  }
  // A device of another domain that matches every search, so isolation is tested with each filter.
  await buildDevice(t, other.id, {
    ident: `${prefix}99`,
    tags: ["north"],
    model: "RUT955",
    last_contact: new Date(nowMs),
  });
});
afterAll(async () => {
  await t?.close();
});

async function list(body: DeviceListRequest | Record<string, unknown>, as = token) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/devices/",
    headers: { token: as },
    payload: body,
  });
  const lines = response.body
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
  return { response, lines, header: lines[0], devices: lines.slice(1).filter((l) => "_id" in l) as Device[] };
}

const status = (d: Seeded) => computeDeviceStatus(d.lastContact, nowMs, DEFAULT_DOMAIN_SETTINGS.status);
const idents = (devices: readonly { ident: string }[]) => devices.map((d) => d.ident).sort();
const expectIdents = (predicate: (d: Seeded) => boolean) => idents(seeded.filter(predicate));

describe("POST /api/devices/ (NDJSON)", () => {
  it("answers a header line, then one device a line, as application/x-ndjson", async () => {
    const { response, lines, header, devices } = await list({ size: 10 });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/x-ndjson");
    expect(header).toEqual({ total: 30, page: 0, size: 10 });
    expect(lines).toHaveLength(11);
    expect(devices[0]).toMatchObject({
      ident: seeded[0]?.ident,
      tags: ["north", "pumps", "подвал"],
      has_key: false,
    });
  });

  it("adds a facets line only when asked", async () => {
    const plain = await list({});
    expect(plain.lines.some((line) => "facets" in line)).toBe(false);
    const { lines } = await list({ facets: true, size: 10 });
    const facets = lines.at(-1).facets;
    expect(lines).toHaveLength(12);
    const count = (p: (d: Seeded) => boolean) => seeded.filter(p).length;
    expect(facets.status).toEqual({
      critical: count((d) => status(d) === "critical"),
      warning: count((d) => status(d) === "warning"),
      pending: count((d) => status(d) === "pending"),
      online: count((d) => status(d) === "online"),
    });
    expect(facets.signal.unknown).toBe(count((d) => signalQualityFromCsq(d.csq) === "unknown"));
    expect(facets.signal.cellEdge).toBe(count((d) => d.csq === 5));
    expect(facets.backups).toEqual({ with: count((d) => d.backups), without: count((d) => !d.backups) });
    expect(facets.journals.with).toBe(count((d) => d.journals));
    expect(facets.events.with).toBe(count((d) => d.unread > 0));
    expect(facets.tags[0]).toEqual({ value: "north", count: 15 });
    // Commonest first, ties by value; none reported is "".
    expect(facets.model).toEqual([
      { value: "", count: 10 },
      { value: "RUT240", count: 10 },
      { value: "RUT955", count: 10 },
    ]);
    expect(facets.network_mode).toEqual([
      { value: "LTE", count: 12 },
      { value: "", count: 6 },
      { value: "3G", count: 6 },
      { value: "5G", count: 6 },
    ]);
    expect(facets.version).toEqual([
      { value: "1.0.0", count: 15 },
      { value: "2.1.0", count: 15 },
    ]);
  });

  it("counts facets over the filtered devices only, and zeros over none", async () => {
    const { lines } = await list({ facets: true, tags: ["pumps"], model: ["RUT955"] });
    const facets = lines.at(-1).facets;
    const matching = seeded.filter((d) => d.tags.includes("pumps") && d.model === "RUT955");
    expect(matching.length).toBeGreaterThan(0);
    expect(facets.model).toEqual([{ value: "RUT955", count: matching.length }]);
    expect(facets.backups.with + facets.backups.without).toBe(matching.length);
    const none = (await list({ facets: true, search: "no such device" })).lines.at(-1).facets;
    expect(none.model).toEqual([]);
    expect(none.tags).toEqual([]);
    expect(none.status).toEqual({ critical: 0, warning: 0, pending: 0, online: 0 });
    expect(none.backups).toEqual({ with: 0, without: 0 });
  });

  it.each(["pending", "online", "warning", "critical"] as const)(
    "filters by status %s at the threshold edges",
    async (s) => {
      const { header, devices } = await list({ status: [s], size: 100 });
      expect(idents(devices)).toEqual(expectIdents((d) => status(d) === s));
      expect(header.total).toBe(devices.length);
      expect(devices.every((d) => d.status === s)).toBe(true);
    },
  );

  it("filters by several statuses, tags (all must match), model, version, mode, signal, backups, journals, events", async () => {
    const cases: [Record<string, unknown>, (d: Seeded) => boolean][] = [
      [{ status: ["online", "pending"] }, (d) => ["online", "pending"].includes(status(d))],
      [{ tags: ["north", "pumps"] }, (d) => d.tags.includes("north") && d.tags.includes("pumps")],
      [{ tags: ["подвал"] }, (d) => d.tags.includes("подвал")],
      [{ model: ["RUT240", ""] }, (d) => d.model === "RUT240" || d.model === null],
      [{ version: ["2.1.0"] }, (d) => d.firmware === "2.1.0"],
      [{ network_mode: ["3G", "5G"] }, (d) => d.mode === "3G" || d.mode === "5G"],
      [{ signal: ["unknown"] }, (d) => signalQualityFromCsq(d.csq) === "unknown"],
      [{ signal: ["midCell", "excellent"] }, (d) => d.csq === 12 || d.csq === 25],
      [{ backups: true }, (d) => d.backups],
      [{ journals: false }, (d) => !d.journals],
      [{ events: "with" }, (d) => d.unread > 0],
      [{ events: "without" }, (d) => d.unread === 0],
      [
        { tags: ["north"], status: ["critical"], backups: true },
        (d) => d.tags.includes("north") && status(d) === "critical" && d.backups,
      ],
    ];
    for (const [filter, predicate] of cases) {
      const { header, devices } = await list({ ...filter, size: 100 });
      expect(idents(devices), JSON.stringify(filter)).toEqual(expectIdents(predicate));
      expect(header.total).toBe(devices.length);
    }
  });

  it("searches ident, description, model, serial and tags, case-insensitively, with _ taken literally", async () => {
    const cases: [string, (d: Seeded, i: number) => boolean][] = [
      ["a_b", (d) => d.description.includes("a_b")],
      ["GATE", (d) => d.description.includes("gate")],
      ["rut240", (d) => d.model === "RUT240"],
      ["SN12", (_d, i) => i === 12],
      ["ПОДВАЛ", (d) => d.tags.includes("подвал")],
      [seeded[3]?.ident.toLowerCase() ?? "", (d) => d.ident === seeded[3]?.ident],
    ];
    for (const [search, predicate] of cases) {
      const { devices } = await list({ search, size: 100 });
      expect(idents(devices), search).toEqual(idents(seeded.filter(predicate)));
    }
  });

  it("sorts and pages in the database; pages join up to the whole sorted list", async () => {
    const pages: Device[] = [];
    for (let page = 0; page < 3; page++) {
      const { header, devices } = await list({ page, size: 10, sort: { field: "ident", order: "desc" } });
      expect(header).toEqual({ total: 30, page, size: 10 });
      pages.push(...devices);
    }
    expect(pages.map((d) => d.ident)).toEqual(
      seeded
        .map((d) => d.ident)
        .sort()
        .reverse(),
    );
    const past = await list({ page: 3, size: 10 });
    expect(past.lines).toHaveLength(1);

    const byTime = (await list({ size: 100, sort: { field: "time", order: "desc" } })).devices;
    const times = byTime.map((d) => d.time);
    const reported = times.filter((time): time is number => time !== null);
    expect(reported).toEqual([...reported].sort((a, b) => b - a));
    expect(times.slice(reported.length).every((time) => time === null)).toBe(true);

    const bySignal = (await list({ size: 100, sort: { field: "signal", order: "asc" } })).devices;
    const csqs = bySignal.map((d) => d.signal.csq).filter((c): c is number => c !== null);
    expect(csqs).toEqual([...csqs].sort((a, b) => a - b));
  });

  it("reads pages past the middle from the end, and they still join up in every sort", async () => {
    // 30 devices, and 25 of them (a partial last page); page 2 of 3 is read from the end.
    for (const filter of [{}, { status: ["online", "warning", "critical"] }]) {
      for (const field of DEVICE_SORT_FIELDS) {
        for (const order of ["asc", "desc"] as const) {
          const sort = { field, order };
          const whole = (await list({ ...filter, size: 100, sort })).devices.map((d) => d.ident);
          const pages: string[] = [];
          for (let page = 0; page < 3; page++)
            pages.push(...(await list({ ...filter, page, size: 10, sort })).devices.map((d) => d.ident));
          expect(pages, `${field} ${order}`).toEqual(whole);
          expect(new Set(whole).size).toBe(whole.length);
        }
      }
    }
  });

  it("sends a page without facets in one body with its length, and streams facets after the page", async () => {
    const plain = await list({ size: 10 });
    expect(plain.response.headers["content-length"]).toBe(String(Buffer.byteLength(plain.response.body)));
    expect(plain.response.headers["transfer-encoding"]).toBeUndefined();
    const withFacets = await list({ size: 10, facets: true });
    expect(withFacets.response.headers["transfer-encoding"]).toBe("chunked");
    expect(withFacets.lines.at(-1)).toHaveProperty("facets");
  });

  it("refuses bad search text, page sizes and sort fields with BAD_REQUEST", async () => {
    for (const body of [
      { search: "a%b" },
      { search: "x';--" },
      { size: 20 },
      { page: -1 },
      { sort: { field: "aes_key" } },
      { status: ["asleep"] },
    ]) {
      const { response } = await list(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe("BAD_REQUEST");
    }
  });

  it("shows another domain's user only their own devices", async () => {
    const { header, devices } = await list(
      { search: seeded[0]?.ident.slice(0, 8) ?? "", size: 100 },
      otherToken,
    );
    expect(header.total).toBe(1);
    expect(devices.map((d) => d.ident)).toEqual([`${seeded[0]?.ident.slice(0, -2)}99`]);
  });
});

describe("POST /api/devices/export", () => {
  it("answers every matching device as CSV, whatever the page size", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/devices/export",
      headers: { token },
      payload: { tags: ["north"], size: 10 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    expect(response.headers["content-disposition"]).toContain("devices.csv");
    const rows = response.body.trim().split("\r\n");
    expect(rows[0]).toBe(
      "ident,description,tags,status,last_contact,model,firmware,serial,network_mode,csq,events,create_time",
    );
    expect(rows).toHaveLength(16);
    expect(rows[1]?.startsWith(`${seeded[0]?.ident},Site 0,north;pumps;подвал,pending,`)).toBe(true);
  });
});

describe("POST /api/tags/ and POST /api/dashboard/", () => {
  it("answers tag frequencies of the domain", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/tags/", headers: { token } });
    expect(response.json()).toEqual({ north: 15, pumps: 10, подвал: 8 });
    const other = await t.app.inject({ method: "POST", url: "/api/tags/", headers: { token: otherToken } });
    expect(other.json()).toEqual({ north: 1 });
  });

  it("answers status totals that move with the clock", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/dashboard/", headers: { token } });
    const count = (s: string) => seeded.filter((d) => status(d) === s).length;
    expect(response.json()).toEqual({
      pending: count("pending"),
      online: count("online"),
      warning: count("warning"),
      critical: count("critical"),
      total: 30,
    });
    t.clock.advanceMinutes(24 * 60 + 1);
    try {
      // The old session has expired by then; a fresh one reads the same domain.
      const fresh = await signIn(t.app, await buildUser(t, { role: 3, domainId }));
      const later = await t.app.inject({ method: "POST", url: "/api/dashboard/", headers: { token: fresh } });
      expect(later.json()).toEqual({
        pending: count("pending"),
        online: 0,
        warning: 0,
        critical: 30 - count("pending"),
        total: 30,
      });
    } finally {
      t.clock.advanceMinutes(-(24 * 60 + 1));
    }
  });
});

describe("shared counts", () => {
  it("answers the dashboard totals of one moment to every caller, and new ones when the clock moves on", async () => {
    const domain = await buildDomain(t);
    const viewer = await signIn(t.app, await buildUser(t, { role: 4, domainId: domain.id }));
    const totals = async () =>
      (await t.app.inject({ method: "POST", url: "/api/dashboard/", headers: { token: viewer } })).json();
    expect(await totals()).toEqual({ pending: 0, online: 0, warning: 0, critical: 0, total: 0 });
    // Written behind the server's back (as another node would): the shared count does not see it yet.
    await buildDevice(t, domain.id, { ident: uniqueDeviceIdent("S"), last_contact: t.clock.now() });
    expect((await totals()).total).toBe(0);
    t.clock.advance(LIST_COUNT_TTL_MS);
    try {
      expect(await totals()).toEqual({ pending: 0, online: 1, warning: 0, critical: 0, total: 1 });
    } finally {
      t.clock.advance(-LIST_COUNT_TTL_MS);
    }
  });
});

describe("the list's JSON lines, built by the database", () => {
  it("equal the device as toDeviceDto makes it, at every status and signal edge", async () => {
    const domain = await buildDomain(t);
    const adminUser = await buildUser(t, { role: 2, domainId: domain.id });
    const admin = await signIn(t.app, adminUser);
    const prefix = uniqueDeviceIdent("J");
    const ages = [
      null,
      0,
      15 * MINUTE - 1,
      15 * MINUTE,
      15 * MINUTE + 1,
      60 * MINUTE,
      60 * MINUTE + 1,
      -MINUTE,
    ];
    const csqs = [null, -1, 0, 9, 10, 14, 15, 19, 20, 31, 32];
    for (let i = 0; i < csqs.length; i++) {
      const age = ages[i % ages.length] ?? null;
      await buildDevice(t, domain.id, {
        ident: `${prefix}${String(i).padStart(2, "0")}`,
        description: i === 0 ? 'quote " and \\ and ünïcode' : `Edge ${i}`,
        tags: i % 2 === 0 ? ["a", "б"] : [],
        last_contact: age === null ? null : new Date(nowMs - age),
        model: i % 3 === 0 ? null : "RUT955",
        firmware: i % 4 === 0 ? null : "1.2.3",
        serial: i % 5 === 0 ? null : `SN${i}`,
        network_mode: i % 2 === 0 ? "LTE" : null,
        signal_csq: csqs[i] ?? null,
        aes_key: i % 3 === 0 ? "AB".repeat(32) : i % 3 === 1 ? "" : null,
        meta: i % 2 === 0 ? { site: { floor: 2 }, list: [1, "x"] } : {},
        has_backups: i % 2 === 0,
        has_journals: i % 3 === 0,
        events_total: i,
        create_time: new Date(nowMs - i * 1234.5),
      });
    }
    const rows = await devicesListRepo(t.db, adminUser.id).findDevicesByFilterAfter(domain.id, {}, null, 100);
    const expected = rows.map((row) => toDeviceDto(row, DEFAULT_DOMAIN_SETTINGS, nowMs));
    const { devices } = await list({ size: 100 }, admin);
    expect(devices).toHaveLength(csqs.length);
    expect(devices).toEqual(expected);
  });
});
