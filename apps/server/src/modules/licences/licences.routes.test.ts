import { type License, LicensesAnswerSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { licenceExpirySource } from "./licences.jobs";
import { type LicenceServiceHarness, startLicenceService } from "./licences.test-support";

// Licences end to end against the vendor's real service on loopback (spec §2-§8, ADR 022):
// activation, refresh, ban, expiry, a tampered answer, the service away, offline files, the
// device count, and who may do any of it.

const DAY_MS = 24 * 3600_000;
let t: TestApp;
let vendor: LicenceServiceHarness;
let root: string;
let admin: string;
let rootUser: Awaited<ReturnType<typeof buildUser>>;
let adminUser: Awaited<ReturnType<typeof buildUser>>;
let operator: string;
let domainId: string;
let serial = 0;

const post = async (url: string, token: string | undefined, payload: object = {}) => {
  const response = await t.app.inject({ method: "POST", url, headers: token ? { token } : {}, payload });
  return { status: response.statusCode, body: response.json() };
};
const list = async () => LicensesAnswerSchema.parse((await post("/api/licenses", root)).body);
const itemOf = async (id: string): Promise<License> =>
  (await list()).items.find((item) => item._id === id) as License;
const addAndActivate = async (key: string) => {
  const added = await post("/api/licenses/new", root, { key });
  expect(added.status).toBe(200);
  await t.jobs.runUntilIdle();
  return itemOf(added.body.item._id);
};
const refresh = async (id: string) => {
  expect((await post("/api/licenses/update", root, { id })).status).toBe(200);
  await t.jobs.runUntilIdle();
  return itemOf(id);
};
const createDevice = () => {
  serial += 1;
  return post("/api/devices/new", admin, { ident: `licrouter${serial}` });
};

beforeAll(async () => {
  let now = () => new Date();
  vendor = await startLicenceService(() => now());
  t = await createTestApp({
    runJobs: false,
    config: { licenses: { serverUrl: vendor.url, publicKeys: [vendor.publicKey], unlicensedDeviceLimit: 0 } },
  });
  now = t.clock.now;
  domainId = (await buildDomain(t)).id;
  rootUser = await buildUser(t, { role: 1 });
  adminUser = await buildUser(t, { role: 2, domainId });
  root = await signIn(t.app, rootUser);
  admin = await signIn(t.app, adminUser);
  operator = await signIn(t.app, await buildUser(t, { role: 4, domainId }));
});

afterAll(async () => {
  await t?.close();
  await vendor?.close();
});

describe("licences", () => {
  it("is root's only: anonymous 401, admin and operator 403 on every call", async () => {
    const calls = [
      "/api/licenses",
      "/api/licenses/new",
      "/api/licenses/update",
      "/api/licenses/fingerprint",
      "/api/licenses/upload",
    ];
    for (const url of calls) {
      expect((await post(url, undefined, { key: "a".repeat(64), document: "{}" })).status).toBe(401);
      for (const token of [admin, operator]) {
        const answer = await post(url, token, { key: "a".repeat(64), document: "{}" });
        expect(answer.status, url).toBe(403);
      }
    }
  });

  it("an unlicensed installation lists nothing and limits nothing (ADR 022)", async () => {
    const answer = await list();
    expect(answer.items).toEqual([]);
    expect(answer.usage).toMatchObject({ licensed: false, limit: null });
    expect((await createDevice()).status).toBe(200);
  });

  it("refuses a key that is not 64 hexadecimal characters with 400", async () => {
    for (const key of ["", "abc", "g".repeat(64), "a".repeat(65)]) {
      const answer = await post("/api/licenses/new", root, { key });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("BAD_REQUEST");
    }
  });

  let activeId: string;
  let activeKey: string;
  it("activates a key through the job: Pending first, then Ready with the signed period and count", async () => {
    const used = (await list()).usage.used;
    activeKey = await vendor.addKey({ deviceCount: used + 2, days: 30 });
    const added = await post("/api/licenses/new", root, { key: activeKey.toUpperCase() });
    expect(added.status).toBe(200);
    expect(added.body.item).toMatchObject({ status: 0, refreshing: true, devices: 0 });
    activeId = added.body.item._id;
    await t.jobs.runUntilIdle();
    const item = await itemOf(activeId);
    expect(item).toMatchObject({
      status: 2,
      error: null,
      refreshing: false,
      devices: used + 2,
      expire: false,
    });
    expect(item.license_id).toBe(`${activeKey.slice(0, 8)}…${activeKey.slice(-4)}`.toUpperCase());
    expect(new Date(item.validUpToDate as string).getTime()).toBe(t.clock.now().getTime() + 30 * DAY_MS);
    expect((await list()).usage).toEqual({ used, limit: used + 2, licensed: true });
  });

  it("answers KEY_ALREADY_EXISTS for a key it knows, in either case", async () => {
    for (const key of [activeKey, activeKey.toUpperCase()]) {
      const answer = await post("/api/licenses/new", root, { key });
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe("KEY_ALREADY_EXISTS");
    }
  });

  it("refuses routers beyond the licensed count with DEVICE_COUNT_LIMITED, one by one and in bulk", async () => {
    expect((await createDevice()).status).toBe(200);
    expect((await createDevice()).status).toBe(200);
    const refused = await createDevice();
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("DEVICE_COUNT_LIMITED");
    const bulk = await post("/api/devices/bulk", admin, { text: "bulkrouter1\nbulkrouter2" });
    expect(bulk.body.code).toBe("DEVICE_COUNT_LIMITED");
    const usage = (await list()).usage;
    expect(usage.used).toBe(usage.limit);
  });

  it("keeps the licence held when the service is unreachable or answers 500", async () => {
    for (const [mode, error] of [
      ["down", "unreachable"],
      ["error500", "server_error"],
    ] as const) {
      vendor.mode = mode;
      const item = await refresh(activeId);
      expect(item).toMatchObject({ status: 2, error, devices: (await list()).usage.limit });
    }
    vendor.mode = "pass";
    expect(await refresh(activeId)).toMatchObject({ status: 2, error: null });
  });

  it("refuses a tampered answer: the signature does not verify, the licence held stays", async () => {
    const before = await itemOf(activeId);
    vendor.mode = "tamper";
    const item = await refresh(activeId);
    vendor.mode = "pass";
    expect(item).toMatchObject({ status: 2, error: "signature_invalid", devices: before.devices });
    expect((await createDevice()).body.code).toBe("DEVICE_COUNT_LIMITED");
  });

  it("a ban reaches the console on refresh (230) and stops new routers; lifting it restores Ready", async () => {
    await vendor.ban(activeKey, true);
    expect(await refresh(activeId)).toMatchObject({ status: 230, error: "banned", devices: 0 });
    expect((await list()).usage.limit).toBe(0);
    expect((await createDevice()).body.code).toBe("DEVICE_COUNT_LIMITED");
    await vendor.ban(activeKey, false);
    expect(await refresh(activeId)).toMatchObject({ status: 2, error: null });
  });

  it("a new key while the service is away is Server error (25); an unknown key is Error", async () => {
    vendor.mode = "down";
    const away = await addAndActivate("b".repeat(64));
    vendor.mode = "pass";
    expect(away).toMatchObject({ status: 25, error: "unreachable" });
    expect(await refresh(away._id)).toMatchObject({ status: 240, error: "unknown_key", devices: 0 });
  });

  it("warns ahead of the end (notify-in-advance source) and turns Expired (254) when the period ends", async () => {
    const now = t.clock.now();
    const expiring = await licenceExpirySource.findExpiring(
      t.db,
      null,
      now,
      new Date(now.getTime() + 31 * DAY_MS),
    );
    expect(expiring).toEqual([
      expect.objectContaining({ id: activeId, expiresAt: new Date(now.getTime() + 30 * DAY_MS) }),
    ]);
    expect(
      await licenceExpirySource.findExpiring(t.db, domainId, now, new Date(now.getTime() + DAY_MS)),
    ).toEqual([]);
    t.clock.advance(31 * DAY_MS);
    // Sessions last hours, not a month: sign in again on the far side of the jump.
    root = await signIn(t.app, rootUser);
    admin = await signIn(t.app, adminUser);
    expect(await itemOf(activeId)).toMatchObject({ status: 254, expire: true, error: "expired" });
    expect((await list()).usage.limit).toBe(0);
    expect((await createDevice()).body.code).toBe("DEVICE_COUNT_LIMITED");
    expect(await refresh(activeId)).toMatchObject({ status: 254, error: "expired" });
  });

  it("activates offline from a licence file signed for this installation's digital print", async () => {
    const { body } = await post("/api/licenses/fingerprint", root);
    expect(body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const now = t.clock.now();
    const payload = {
      v: 1 as const,
      key: "c".repeat(64),
      fingerprint: body.fingerprint as string,
      status: "active" as const,
      validFrom: now.toISOString(),
      validUntil: new Date(now.getTime() + 365 * DAY_MS).toISOString(),
      deviceCount: 500,
      issuedAt: now.toISOString(),
    };
    const upload = (document: unknown) =>
      post("/api/licenses/upload", root, {
        document: typeof document === "string" ? document : JSON.stringify(document),
      });
    expect((await upload("not json")).body.code).toBe("FILE_PARSING_FAILED");
    const forged = { ...vendor.sign(payload), payload: { ...payload, deviceCount: 5000 } };
    expect((await upload(forged)).status).toBe(400);
    expect((await upload(vendor.sign({ ...payload, fingerprint: "d".repeat(64) }))).body.message).toMatch(
      /another installation/,
    );
    const accepted = await upload(vendor.sign(payload));
    expect(accepted.status).toBe(200);
    expect(accepted.body.item).toMatchObject({ status: 2, devices: 500 });
    expect((await list()).usage.limit).toBe(500);
    expect((await createDevice()).status).toBe(200);
    // An older file must not undo a newer licence.
    const older = { ...payload, deviceCount: 1, issuedAt: new Date(now.getTime() - DAY_MS).toISOString() };
    expect((await upload(vendor.sign(older))).body.message).toMatch(/older/);
    expect((await list()).usage.limit).toBe(500);
  });

  it("answers 404 for a refresh of a licence that does not exist", async () => {
    const answer = await post("/api/licenses/update", root, { id: "no-such-licence" });
    expect(answer.status).toBe(404);
  });
});
