import { DEFAULT_DOMAIN_SETTINGS } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { buildDevice, insertDeviceUnseen, uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { toDeviceDto } from "./devices.mapper";
import { devicesListRepo } from "./devices-list.repo";
import { MINUTE, type Seeded, type SeededDeviceList, useSeededDeviceList } from "./devices-list.test-support";
import { LIST_COUNT_TTL_MS } from "./list-count-cache";

const fleet = useSeededDeviceList();
const list: SeededDeviceList["list"] = (body, as) => fleet.list(body, as);
const status = (d: Seeded) => fleet.status(d);
const _expectIdents = (predicate: (d: Seeded) => boolean) => fleet.expectIdents(predicate);

describe("POST /api/devices/export", () => {
  it("answers every matching device as CSV, whatever the page size", async () => {
    const response = await fleet.t.app.inject({
      method: "POST",
      url: "/api/devices/export",
      headers: { token: fleet.token },
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
    expect(rows[1]?.startsWith(`${fleet.seeded[0]?.ident},Site 0,north;pumps;подвал,pending,`)).toBe(true);
  });
});

describe("POST /api/tags/ and POST /api/dashboard/", () => {
  it("answers tag frequencies of the domain", async () => {
    const response = await fleet.t.app.inject({
      method: "POST",
      url: "/api/tags/",
      headers: { token: fleet.token },
    });
    expect(response.json()).toEqual({ north: 15, pumps: 10, подвал: 8 });
    const other = await fleet.t.app.inject({
      method: "POST",
      url: "/api/tags/",
      headers: { token: fleet.otherToken },
    });
    expect(other.json()).toEqual({ north: 1 });
  });

  it("answers status totals that move with the clock", async () => {
    const response = await fleet.t.app.inject({
      method: "POST",
      url: "/api/dashboard/",
      headers: { token: fleet.token },
    });
    const count = (s: string) => fleet.seeded.filter((d) => status(d) === s).length;
    expect(response.json()).toEqual({
      pending: count("pending"),
      online: count("online"),
      warning: count("warning"),
      critical: count("critical"),
      total: 30,
    });
    const statuses = async (token?: string) =>
      (await list({ size: 100 }, token)).devices.map((device) => device.status).sort();
    expect(await statuses()).toEqual(fleet.seeded.map(status).sort());
    fleet.t.clock.advanceMinutes(24 * 60 + 1);
    try {
      // The old session has expired by then; a fresh one reads the same domain.
      const fresh = await signIn(
        fleet.t.app,
        await buildUser(fleet.t, { role: 3, domainId: fleet.domainId }),
      );
      // The list's page, kept until the domain changes (ADR 046), is judged at the new moment too.
      expect(await statuses(fresh)).toEqual(
        fleet.seeded.map((d) => (status(d) === "pending" ? "pending" : "critical")).sort(),
      );
      const later = await fleet.t.app.inject({
        method: "POST",
        url: "/api/dashboard/",
        headers: { token: fresh },
      });
      expect(later.json()).toEqual({
        pending: count("pending"),
        online: 0,
        warning: 0,
        critical: 30 - count("pending"),
        total: 30,
      });
    } finally {
      fleet.t.clock.advanceMinutes(-(24 * 60 + 1));
    }
  });
});

describe("shared counts", () => {
  it("answers the dashboard totals of one moment to every caller, and new ones when the clock moves on", async () => {
    const domain = await buildDomain(fleet.t);
    const viewer = await signIn(fleet.t.app, await buildUser(fleet.t, { role: 4, domainId: domain.id }));
    const totals = async () =>
      (
        await fleet.t.app.inject({ method: "POST", url: "/api/dashboard/", headers: { token: viewer } })
      ).json();
    expect(await totals()).toEqual({ pending: 0, online: 0, warning: 0, critical: 0, total: 0 });
    // Written behind the server's back (as another node would): the shared count does not see it yet.
    await insertDeviceUnseen(fleet.t, domain.id, {
      ident: uniqueDeviceIdent("S"),
      last_contact: fleet.t.clock.now(),
    });
    expect((await totals()).total).toBe(0);
    fleet.t.clock.advance(LIST_COUNT_TTL_MS);
    try {
      expect(await totals()).toEqual({ pending: 0, online: 1, warning: 0, critical: 0, total: 1 });
    } finally {
      fleet.t.clock.advance(-LIST_COUNT_TTL_MS);
    }
  });
});

describe("the list's JSON lines, built by the database", () => {
  it("equal the device as toDeviceDto makes it, at every status and signal edge", async () => {
    const domain = await buildDomain(fleet.t);
    const adminUser = await buildUser(fleet.t, { role: 2, domainId: domain.id });
    const admin = await signIn(fleet.t.app, adminUser);
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
      await buildDevice(fleet.t, domain.id, {
        ident: `${prefix}${String(i).padStart(2, "0")}`,
        description: i === 0 ? 'quote " and \\ and ünïcode' : `Edge ${i}`,
        tags: i % 2 === 0 ? ["a", "б"] : [],
        last_contact: age === null ? null : new Date(fleet.nowMs - age),
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
        create_time: new Date(fleet.nowMs - i * 1234.5),
      });
    }
    const rows = await devicesListRepo(fleet.t.db, adminUser.id, []).findDevicesByFilterAfter(
      domain.id,
      {},
      null,
      100,
    );
    const expected = rows.map((row) => toDeviceDto(row, DEFAULT_DOMAIN_SETTINGS, fleet.nowMs));
    const { devices } = await list({ size: 100 }, admin);
    expect(devices).toHaveLength(csqs.length);
    expect(devices).toEqual(expected);
  });
});
