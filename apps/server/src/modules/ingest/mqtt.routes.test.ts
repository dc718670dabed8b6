import { collectTopic, commandTopic, publisherClientId } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { insertDevice, sampleDeviceIngestStats, type TestDevice } from "./ingest.test-support";
import { MQTT_AUTH_SECRET_HEADER } from "./mqtt.routes";

const SECRET = "broker-shared-secret-for-tests";
const STATS = sampleDeviceIngestStats({ accepted: 7 });
let t: TestApp;
let device: TestDevice;
let other: TestDevice;

beforeAll(async () => {
  t = await createTestApp({
    config: { mqttAuthSecret: SECRET },
    mqttStats: () => STATS,
  });
  const domain = await buildDomain(t);
  device = await insertDevice(t, domain.id);
  other = await insertDevice(t, (await buildDomain(t)).id);
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, secret: string | null = SECRET) =>
  t.app.inject({
    method: "POST",
    url,
    payload: payload as object,
    headers: secret === null ? {} : { [MQTT_AUTH_SECRET_HEADER]: secret },
  });

describe("POST /api/mqtt/auth (external broker hook)", () => {
  it("allows a device with its token (200, result allow)", async () => {
    const response = await post("/api/mqtt/auth", {
      clientid: device.ident,
      username: device.ident,
      password: device.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: "allow", Ok: true });
  });

  it("denies a wrong token, an unknown device and a username that is not the client id (403, result deny)", async () => {
    for (const body of [
      { clientid: device.ident, username: device.ident, password: "0".repeat(64) },
      { clientid: "UNKNOWN0001", username: "UNKNOWN0001", password: device.token },
      { clientid: device.ident, username: other.ident, password: device.token },
    ]) {
      const response = await post("/api/mqtt/auth", body);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ result: "deny", Ok: false });
    }
  });

  it("answers 403 ACCESS_DENIED without the shared secret or with a wrong one", async () => {
    const body = { clientid: device.ident, username: device.ident, password: device.token };
    for (const secret of [null, "not-the-secret"]) {
      const response = await post("/api/mqtt/auth", body, secret);
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe("ACCESS_DENIED");
    }
  });

  it("answers 400 BAD_REQUEST for a body without a client id", async () => {
    const response = await post("/api/mqtt/auth", { username: device.ident });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("BAD_REQUEST");
  });
});

describe("a router's publishing connection {ident}-p through the hooks (ADR 030)", () => {
  it("is let in with the ident's token and may publish under the ident only", async () => {
    const clientid = publisherClientId(device.ident);
    const allowed = await post("/api/mqtt/auth", { clientid, username: clientid, password: device.token });
    expect(allowed.statusCode).toBe(200);
    for (const body of [
      { clientid, username: clientid, password: other.token },
      { clientid, username: device.ident, password: device.token },
    ])
      expect((await post("/api/mqtt/auth", body)).statusCode).toBe(403);
    const own = collectTopic(device.ident, "board");
    expect((await post("/api/mqtt/acl", { clientid, topic: own, action: "publish" })).statusCode).toBe(200);
    expect(
      (
        await post("/api/mqtt/acl", {
          clientid,
          topic: collectTopic(other.ident, "board"),
          action: "publish",
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe("POST /api/mqtt/acl (external broker hook)", () => {
  it("allows a device to publish and subscribe under its own ident only", async () => {
    const own = collectTopic(device.ident, "modems");
    expect((await post("/api/mqtt/acl", { clientid: device.ident, topic: own, acc: 2 })).statusCode).toBe(
      200,
    );
    expect(
      (await post("/api/mqtt/acl", { clientid: device.ident, topic: own, action: "publish" })).statusCode,
    ).toBe(200);
    expect(
      (await post("/api/mqtt/acl", { clientid: device.ident, topic: commandTopic(device.ident), acc: 4 }))
        .statusCode,
    ).toBe(200);
    // A topic of its own this server does not speak (v2, a new collect type): let through, so the
    // server acknowledges it and tells the device why instead of the broker closing the connection.
    for (const topic of [`cellfleet/v2/${device.ident}/hello`, `cellfleet/v1/${device.ident}/collect/wifi`]) {
      expect((await post("/api/mqtt/acl", { clientid: device.ident, topic, acc: 2 })).statusCode).toBe(200);
    }
    // Publishing as another device, subscribing to its commands, wildcards: denied.
    expect(
      (
        await post("/api/mqtt/acl", {
          clientid: device.ident,
          topic: collectTopic(other.ident, "modems"),
          acc: 2,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await post("/api/mqtt/acl", { clientid: device.ident, topic: commandTopic(other.ident), acc: 4 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await post("/api/mqtt/acl", { clientid: device.ident, topic: "cellfleet/v1/+/command", acc: 4 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await post("/api/mqtt/acl", { clientid: device.ident, topic: own, acc: 2 }, null)).statusCode,
    ).toBe(403);
  });
});

describe("GET /api/mqtt/stats", () => {
  it("answers 401 to anonymous callers", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/mqtt/stats" });
    expect(response.statusCode).toBe(401);
  });

  it("answers 403 to domain users", async () => {
    const admin = await buildUser(t, { role: 2 });
    const token = await signIn(t.app, admin);
    const response = await t.app.inject({ method: "GET", url: "/api/mqtt/stats", headers: { token } });
    expect(response.statusCode).toBe(403);
  });

  it("answers the gateway figures to superusers", async () => {
    const root = await buildUser(t, { role: 1 });
    const token = await signIn(t.app, root);
    const response = await t.app.inject({ method: "GET", url: "/api/mqtt/stats", headers: { token } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(STATS);
  });
});
