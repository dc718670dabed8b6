import { createHmac } from "node:crypto";
import type { Role, ZeroTouchSecretAnswer } from "@cellfleet/contract";
import type { Response } from "light-my-request";
import mqtt, { type MqttClient } from "mqtt";
import { expect } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "../ingest/ingest.runtime";
import { startTestIngest } from "../ingest/ingest.test-support";

// A console with its embedded broker and the zero-touch path, an admin, and the formulas of
// docs/device-protocol.md, "Zero-touch join" written again here (not imported from the server), so a change of the
// server's derivation that the document does not follow fails these tests.

/** What a router built for a configuration presents: `zt1:` user name and HMAC password. */
export function ztCredentials(
  secretHex: string,
  keyId: string,
  ident: string,
  claims: { model: string; serial: string; imei: string },
): { username: string; password: string } {
  const username = `zt1:${keyId}:${claims.model}:${claims.serial}:${claims.imei}`;
  const password = createHmac("sha256", Buffer.from(secretHex, "hex"))
    .update(`cellfleet/zt1/${ident}/${username}`, "utf8")
    .digest("hex");
  return { username, password };
}

/** The router's own key once it joined: HMAC(secret, `cellfleet/zt1/key/{ident}`). */
export function ztDeviceKey(secretHex: string, ident: string): string {
  return createHmac("sha256", Buffer.from(secretHex, "hex"))
    .update(`cellfleet/zt1/key/${ident}`, "utf8")
    .digest("hex");
}

/** The secret the external broker's HTTP hooks send (MQTT_AUTH_SECRET). */
export const MQTT_HOOK_SECRET = "zero-touch-hook-secret";

export interface ZeroTouchFixture {
  t: TestApp;
  ingest: DeviceIngest;
  domainId: string;
  admin: string;
  post(token: string | undefined, url: string, payload?: unknown): Promise<Response>;
  person(role: Role, domainId?: string): Promise<string>;
  template(name: string, text: string): Promise<string>;
  config(body: Record<string, unknown>): Promise<ZeroTouchSecretAnswer>;
  connect(ident: string, credentials: { username: string; password: string }): Promise<MqttClient>;
  close(): Promise<void>;
}

export async function openZeroTouchFixture(): Promise<ZeroTouchFixture> {
  const t = await createTestApp({ jobTimings: { pollMs: 50 }, config: { mqttAuthSecret: MQTT_HOOK_SECRET } });
  const ingest = await startTestIngest(t, { flushIntervalMs: 10, withCommands: true, withZeroTouch: true });

  t.app.deviceLink.attach(ingest.gateway);
  const domainId = (await buildDomain(t)).id;
  const clients: MqttClient[] = [];
  const post: ZeroTouchFixture["post"] = async (token, url, payload = {}) =>
    t.app.inject({ method: "POST", url, headers: token ? { token } : {}, payload: payload as object });
  const person = async (role: Role, domain = domainId) =>
    signIn(t.app, await buildUser(t, { role, domainId: domain }));
  const admin = await person(2);
  return {
    t,
    ingest,
    domainId,
    admin,
    post,
    person,
    async template(name, text) {
      const response = await post(admin, "/api/template/new", { name, text });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ _id: string }>()._id;
    },
    async config(body) {
      const response = await post(admin, "/api/zerotouch/config/new", body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ZeroTouchSecretAnswer>();
    },
    async connect(ident, credentials) {
      const client = await mqtt.connectAsync(ingest.gateway.url, {
        clientId: ident,
        ...credentials,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.endAsync(true)));
      t.app.deviceLink.detach();
      await ingest.close();
      await t.close();
    },
  };
}
