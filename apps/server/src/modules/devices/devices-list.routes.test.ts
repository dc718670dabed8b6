import { DEVICE_SORT_FIELDS, type Device, signalQualityFromCsq } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { idents, type Seeded, type SeededDeviceList, useSeededDeviceList } from "./devices-list.test-support";

const fleet = useSeededDeviceList();
const list: SeededDeviceList["list"] = (body, as) => fleet.list(body, as);
const status = (d: Seeded) => fleet.status(d);
const expectIdents = (predicate: (d: Seeded) => boolean) => fleet.expectIdents(predicate);

describe("POST /api/devices/ (NDJSON)", () => {
  it("answers a header line, then one device a line, as application/x-ndjson", async () => {
    const { response, lines, header, devices } = await list({ size: 10 });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/x-ndjson");
    expect(header).toEqual({ total: 30, page: 0, size: 10 });
    expect(lines).toHaveLength(11);
    expect(devices[0]).toMatchObject({
      ident: fleet.seeded[0]?.ident,
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
    const count = (p: (d: Seeded) => boolean) => fleet.seeded.filter(p).length;
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
    const matching = fleet.seeded.filter((d) => d.tags.includes("pumps") && d.model === "RUT955");
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
      [fleet.seeded[3]?.ident.toLowerCase() ?? "", (d) => d.ident === fleet.seeded[3]?.ident],
    ];
    for (const [search, predicate] of cases) {
      const { devices } = await list({ search, size: 100 });
      expect(idents(devices), search).toEqual(idents(fleet.seeded.filter(predicate)));
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
      fleet.seeded
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
      { search: fleet.seeded[0]?.ident.slice(0, 8) ?? "", size: 100 },
      fleet.otherToken,
    );
    expect(header.total).toBe(1);
    expect(devices.map((d) => d.ident)).toEqual([`${fleet.seeded[0]?.ident.slice(0, -2)}99`]);
  });
});
