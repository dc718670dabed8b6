import {
  computeDeviceStatus,
  DEFAULT_DOMAIN_SETTINGS,
  type Device,
  DeviceListLineSchema,
  type DeviceListRequest,
} from "@cellfleet/contract";
import { afterAll, beforeAll } from "vitest";
import { buildDevice, uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// The device list's seeded fleet, shared by its route tests: 30 devices of one domain around every
// status, signal and filter edge, and one of another domain that matches every search.

export const MINUTE = 60_000;
// Contact ages around the default thresholds (online ≤ 15 min, warning ≤ 60 min), null = never.
export const AGES = [
  null,
  MINUTE,
  15 * MINUTE,
  15 * MINUTE + 1,
  60 * MINUTE,
  60 * MINUTE + 1,
  24 * 60 * MINUTE,
];
export const MODELS = ["RUT955", "RUT240", null];
export const MODES = ["LTE", "LTE", "3G", "5G", null];
export const CSQS = [null, 5, 12, 17, 25, 99];

/** A seeded device, as the test expects to see it. */
export interface Seeded {
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

/** The seeded list's app, callers and devices; valid inside the tests of the file that asked for it. */
export interface SeededDeviceList {
  t: TestApp;
  token: string;
  otherToken: string;
  nowMs: number;
  domainId: string;
  seeded: Seeded[];
  list(
    body: DeviceListRequest | Record<string, unknown>,
    as?: string,
  ): Promise<{
    response: Awaited<ReturnType<TestApp["app"]["inject"]>>;
    lines: ReturnType<typeof JSON.parse>[];
    header: ReturnType<typeof JSON.parse>;
    devices: Device[];
  }>;
  status(d: Seeded): string;
  expectIdents(predicate: (d: Seeded) => boolean): string[];
}

export const idents = (devices: readonly { ident: string }[]) => devices.map((d) => d.ident).sort();

/** Seeds the fleet before the file's tests and closes the app after them. */
export function useSeededDeviceList(): SeededDeviceList {
  const s = { seeded: [] as Seeded[] } as SeededDeviceList;
  beforeAll(async () => {
    s.t = await createTestApp();
    const t = s.t;
    s.nowMs = t.clock.now().getTime();
    const domain = await buildDomain(t);
    s.domainId = domain.id;
    const other = await buildDomain(t);
    s.token = await signIn(t.app, await buildUser(t, { role: 4, domainId: domain.id }));
    s.otherToken = await signIn(t.app, await buildUser(t, { role: 2, domainId: other.id }));
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
        lastContact: age === null ? null : s.nowMs - age,
        model: MODELS[i % MODELS.length] ?? null,
        firmware: i % 2 === 0 ? "1.0.0" : "2.1.0",
        mode: MODES[i % MODES.length] ?? null,
        csq: CSQS[i % CSQS.length] ?? null,
        backups: i % 4 === 0,
        journals: i % 5 === 0,
        unread: i % 7 === 0 ? 2 : 0,
      };
      s.seeded.push(device);
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
        create_time: new Date(s.nowMs - i * 1000),
      });
    }
    // A device of another domain that matches every search, so isolation is tested with each filter.
    await buildDevice(t, other.id, {
      ident: `${prefix}99`,
      tags: ["north"],
      model: "RUT955",
      last_contact: new Date(s.nowMs),
    });
  });
  afterAll(async () => {
    await s.t?.close();
  });
  s.list = async (body, as = s.token) => {
    const response = await s.t.app.inject({
      method: "POST",
      url: "/api/devices/",
      headers: { token: as },
      payload: body,
    });
    const lines = response.body
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => {
        const data = JSON.parse(line);
        // Every line as the contract says: the web takes them unchecked (ADR 026).
        if (response.statusCode === 200) DeviceListLineSchema.parse(data);
        return data;
      });
    return {
      response,
      lines,
      header: lines[0],
      devices: lines.slice(1).filter((l) => "_id" in l) as Device[],
    };
  };
  s.status = (d) => computeDeviceStatus(d.lastContact, s.nowMs, DEFAULT_DOMAIN_SETTINGS.status);
  s.expectIdents = (predicate) => idents(s.seeded.filter(predicate));
  return s;
}
