import type { Device } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import type { TestApp } from "../../test/test-app";
import { callApi, type DeviceTestTokens, KEY64, setupDevicesTest } from "./devices.test-support";

let t: TestApp;
let domainId: string;
let otherDomainId: string;
let tokens: DeviceTestTokens;

beforeAll(async () => {
  ({ t, domainId, otherDomainId, tokens } = await setupDevicesTest());
});
afterAll(async () => {
  await t?.close();
});

const call = (token: string | null, method: "POST" | "DELETE", url: string, payload?: unknown) =>
  callApi(t, token, method, url, payload);

describe("access", () => {
  const routes: [string, "POST" | "DELETE", string, unknown][] = [
    ["new", "POST", "/api/devices/new", { ident: "ACCESS0001" }],
    ["bulk", "POST", "/api/devices/bulk", { text: "ACCESS0002" }],
    ["multiple", "POST", "/api/devices/multiple/", { targets: ["x"], action: "add_tags", tags: ["abc"] }],
    ["edit", "POST", "/api/device/x/edit", { description: "d" }],
    ["delete", "DELETE", "/api/device/x", undefined],
    ["list", "POST", "/api/devices/", {}],
    ["export", "POST", "/api/devices/export", {}],
    ["tags", "POST", "/api/tags/", {}],
    ["dashboard", "POST", "/api/dashboard/", {}],
    ["detail", "POST", "/api/device/x", {}],
  ];

  it.each(routes)("%s answers 401 without a token", async (_name, method, url, payload) => {
    const { status, body } = await call(null, method, url, payload);
    expect(status).toBe(401);
    expect(body.code).toBe("TOKEN_NOT_GIVEN");
  });

  it.each(routes)("%s answers 403 to a superuser (no device views)", async (_name, method, url, payload) => {
    const { status, body } = await call(tokens.root, method, url, payload);
    expect(status).toBe(403);
    expect(body.code).toBe("PERMISSION_DENIED");
  });

  it.each(routes.slice(0, 5))("%s refuses operators, who only view", async (_name, method, url, payload) => {
    const { status, body } = await call(tokens.operator, method, url, payload);
    expect(status).toBe(403);
    expect(body.code).toBe("PERMISSION_DENIED");
  });

  it.each([routes[0], routes[1], routes[4]])("%s is for admins only", async (_name, method, url, payload) => {
    const { status, body } = await call(tokens.assistant, method, url, payload);
    expect(status).toBe(403);
    expect(body.code).toBe("PERMISSION_DENIED");
  });

  it.each(routes.slice(0, 5))("%s refuses demo sessions", async (_name, method, url, payload) => {
    const { status, body } = await call(tokens.demo, method, url, payload);
    expect(status).toBe(403);
    expect(body.code).toBe("DEMO_PERMISSIONS_DENIED");
  });
});

describe("POST /api/devices/new", () => {
  it("creates a device, stores the key uppercase and answers only has_key", async () => {
    const ident = uniqueDeviceIdent("NEW");
    const { status, body } = await call(tokens.admin, "POST", "/api/devices/new", {
      ident,
      description: " Gate 1 ",
      tags: ["north", "pumps", "north"],
      aes_key: KEY64,
    });
    expect(status).toBe(200);
    const device = body as Device;
    expect(device).toMatchObject({
      ident,
      description: "Gate 1",
      tags: ["north", "pumps"],
      status: "pending",
      time: null,
      has_key: true,
      events: 0,
      board: { model: null },
    });
    expect(JSON.stringify(device)).not.toContain(KEY64.slice(0, 10));
    const row = await t.db
      .selectFrom("devices")
      .selectAll()
      .where("id", "=", device._id)
      .executeTakeFirstOrThrow();
    expect(row.aes_key).toBe(KEY64.toUpperCase());
    expect(row.domain_id).toBe(domainId);
  });

  it.each([
    ["too short", "AB1"],
    ["separators", "AB-12345"],
    ["spaces", "AB 12345"],
    ["too long", "A".repeat(65)],
    ["empty", ""],
  ])("refuses an ident with %s: BAD_IDENT", async (_case, ident) => {
    const { status, body } = await call(tokens.admin, "POST", "/api/devices/new", { ident });
    expect(status).toBe(400);
    expect(body.code).toBe("BAD_IDENT");
  });

  it.each([
    ["not an array", "north"],
    ["a tag too short", ["ab"]],
    ["a tag too long", ["a".repeat(26)]],
    ["a tag with a dot", ["a.bcd"]],
  ])("refuses tags that are %s: TAGS_MUST_BE_ARRAY", async (_case, tags) => {
    const { status, body } = await call(tokens.admin, "POST", "/api/devices/new", {
      ident: uniqueDeviceIdent(),
      tags,
    });
    expect(status).toBe(400);
    expect(body.code).toBe("TAGS_MUST_BE_ARRAY");
  });

  it.each([
    [63, 400],
    [64, 200],
    [65, 400],
  ])("a key of %i hex characters answers %i", async (length, expected) => {
    const { status, body } = await call(tokens.admin, "POST", "/api/devices/new", {
      ident: uniqueDeviceIdent(),
      aes_key: "F".repeat(length),
    });
    expect(status).toBe(expected);
    if (expected === 400) expect(body.code).toBe("BAD_REQUEST");
  });

  it("refuses a key that is not hex", async () => {
    const { status, body } = await call(tokens.admin, "POST", "/api/devices/new", {
      ident: uniqueDeviceIdent(),
      aes_key: "G".repeat(64),
    });
    expect(status).toBe(400);
    expect(body.code).toBe("BAD_REQUEST");
  });

  it("refuses an ident taken in this domain or another: DEVICE_ALREADY_EXIST", async () => {
    const own = await buildDevice(t, domainId);
    const foreign = await buildDevice(t, otherDomainId);
    for (const ident of [own.ident, foreign.ident]) {
      const { status, body } = await call(tokens.admin, "POST", "/api/devices/new", { ident });
      expect(status).toBe(409);
      expect(body.code).toBe("DEVICE_ALREADY_EXIST");
    }
  });

  it("keeps to the domain's device limit: DEVICE_COUNT_LIMITED", async () => {
    const limited = await buildDomain(t, { device_limit: 2 });
    const admin = await signIn(t.app, await buildUser(t, { role: 2, domainId: limited.id }));
    for (let i = 0; i < 2; i++) {
      const { status } = await call(admin, "POST", "/api/devices/new", { ident: uniqueDeviceIdent() });
      expect(status).toBe(200);
    }
    const third = await call(admin, "POST", "/api/devices/new", { ident: uniqueDeviceIdent() });
    expect(third.status).toBe(400);
    expect(third.body.code).toBe("DEVICE_COUNT_LIMITED");
    const bulk = await call(admin, "POST", "/api/devices/bulk", { text: uniqueDeviceIdent() });
    expect(bulk.body.code).toBe("DEVICE_COUNT_LIMITED");
    const count = await t.db
      .selectFrom("devices")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("domain_id", "=", limited.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });
});

describe("POST /api/devices/bulk", () => {
  it("creates every valid line and answers each line's result", async () => {
    const taken = await buildDevice(t, otherDomainId);
    const [a, b] = [uniqueDeviceIdent("BLK"), uniqueDeviceIdent("BLK")];
    const text = [
      "ident,description,tags,key",
      `${a},Pump station, north ; pumps ,${KEY64}`,
      "",
      "# a comment",
      "bad-ident",
      `${b}`,
      `${b},again`,
      `${taken.ident},taken elsewhere`,
      `${uniqueDeviceIdent()},x,ab`,
      `${uniqueDeviceIdent()},x,,${"1".repeat(63)}`,
    ].join("\n");
    const { status, body } = await call(tokens.admin, "POST", "/api/devices/bulk", { text });
    expect(status).toBe(200);
    expect(body.created).toBe(2);
    expect(body.failed).toBe(5);
    expect(body.results.map((r: { line: number; result: string }) => [r.line, r.result])).toEqual([
      [2, "created"],
      [5, "BAD_IDENT"],
      [6, "created"],
      [7, "DEVICE_ALREADY_EXIST"],
      [8, "DEVICE_ALREADY_EXIST"],
      [9, "TAGS_MUST_BE_ARRAY"],
      [10, "BAD_REQUEST"],
    ]);
    const row = await t.db.selectFrom("devices").selectAll().where("ident", "=", a).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ domain_id: domainId, description: "Pump station", tags: ["north", "pumps"] });
    expect(row.aes_key).toBe(KEY64.toUpperCase());
  });
});
