import type { ZeroTouchConfig } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain } from "../../test/factories";
import { uniqueIdent } from "../ingest/ingest.test-support";
import { MQTT_AUTH_SECRET_HEADER } from "../ingest/mqtt.routes";
import {
  MQTT_HOOK_SECRET,
  openZeroTouchFixture,
  type ZeroTouchFixture,
  ztCredentials,
} from "./zerotouch.test-support";

// The zero-touch routes: configurations, secrets, the adoption list, and who may call them. The
// gateway's path is asked directly (its hook, "ingest.zeroTouch"), as the broker asks it at a CONNECT.

let f: ZeroTouchFixture;
let otherAdmin: string;

beforeAll(async () => {
  f = await openZeroTouchFixture();
  otherAdmin = await f.person(2, (await buildDomain(f.t)).id);
}, 60_000);

afterAll(async () => {
  await f?.close();
});

const join = (ident: string, credentials: { username: string; password: string }) =>
  f.t.app.hooks.get("ingest.zeroTouch")(ident, credentials.username, credentials.password, {
    address: "192.0.2.7",
  });

describe("zero-touch configurations", () => {
  it("answers the secret once: never in the list or the configuration itself", async () => {
    const { config, secret } = await f.config({ name: "Secret once", models: ["RUT955"] });
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(config.key_id).toMatch(/^[0-9a-f]{12}$/);
    const one = await f.post(f.admin, `/api/zerotouch/config/${config._id}`);
    const list = await f.post(f.admin, "/api/zerotouch/configs");
    expect(one.body).not.toContain(secret);
    expect(list.body).not.toContain(secret);
    const stored = await f.t.db
      .selectFrom("zero_touch_configs")
      .select("secret_sealed")
      .where("id", "=", config._id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain(secret);
  });

  it("a new secret replaces the old one for routers not yet joined", async () => {
    const { config, secret } = await f.config({ name: "Renewed" });
    const renewed = await f.post(f.admin, `/api/zerotouch/config/${config._id}/secret`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const next = renewed.json<{ secret: string }>().secret;
    expect(next).not.toBe(secret);
    const ident = uniqueIdent("ZR");
    const claims = { model: "M", serial: "1", imei: "" };
    expect(await join(ident, ztCredentials(secret, config.key_id, ident, claims))).toEqual({
      ok: false,
      reason: "bad_token",
    });
    expect(await join(ident, ztCredentials(next, config.key_id, ident, claims))).toEqual({ ok: true });
  });

  it("matches serial and IMEI ranges at their ends, and sends the rest to the adoption list", async () => {
    const { config, secret } = await f.config({
      name: "Ranges",
      serial_ranges: [{ from: "A1000", to: "A1999" }],
      imei_ranges: [{ from: "356938035643800", to: "356938035643899" }],
    });
    const attempt = async (serial: string, imei: string) => {
      const ident = uniqueIdent("ZM");
      const result = await join(
        ident,
        ztCredentials(secret, config.key_id, ident, { model: "X", serial, imei }),
      );
      return result.ok ? "joined" : result.reason;
    };
    expect(await attempt("A1000", "356938035643800")).toBe("joined");
    expect(await attempt("a1999", "356938035643899")).toBe("joined");
    expect(await attempt("A0999", "356938035643850")).toBe("adoption_pending");
    expect(await attempt("A2000", "356938035643850")).toBe("adoption_pending");
    expect(await attempt("A1500", "356938035643900")).toBe("adoption_pending");
    expect(await attempt("A1500", "")).toBe("adoption_pending");
    const saved = await f.post(f.admin, `/api/zerotouch/config/${config._id}`);
    expect(saved.json<ZeroTouchConfig>().joined).toBe(2);
  });

  it("answers an external broker's HTTP auth hook the same way (EMQX, mosquitto-go-auth)", async () => {
    const { config, secret } = await f.config({ name: "Behind EMQX", models: ["RUT955"] });
    const ask = async (ident: string, model: string) => {
      const { username, password } = ztCredentials(secret, config.key_id, ident, {
        model,
        serial: "7",
        imei: "",
      });
      return f.t.app.inject({
        method: "POST",
        url: "/api/mqtt/auth",
        headers: { [MQTT_AUTH_SECRET_HEADER]: MQTT_HOOK_SECRET },
        payload: { clientid: ident, username, password, peerhost: "198.51.100.4" },
      });
    };
    const allowed = await ask(uniqueIdent("ZE"), "RUT955");
    expect(allowed.statusCode, allowed.body).toBe(200);
    const waiting = await ask(uniqueIdent("ZE"), "OTHER");
    expect(waiting.statusCode).toBe(403);
    expect(waiting.json()).toMatchObject({ result: "deny", Error: "adoption_pending" });
  });

  it("an inactive configuration lets nobody join: they wait", async () => {
    const { config, secret } = await f.config({ name: "Paused", active: false });
    const ident = uniqueIdent("ZP");
    const result = await join(
      ident,
      ztCredentials(secret, config.key_id, ident, { model: "", serial: "1", imei: "" }),
    );
    expect(result).toEqual({ ok: false, reason: "adoption_pending" });
  });

  it("saves new fields and keeps the key id; deletes", async () => {
    const { config } = await f.config({ name: "Editable" });
    const saved = await f.post(f.admin, `/api/zerotouch/config/${config._id}/save`, {
      name: "Edited",
      tags: ["edited-tag"],
      models: ["ICR-3241"],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ name: "Edited", key_id: config.key_id, tags: ["edited-tag"] });
    const deleted = await f.t.app.inject({
      method: "DELETE",
      url: `/api/zerotouch/config/${config._id}`,
      headers: { token: f.admin },
      payload: {},
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await f.post(f.admin, `/api/zerotouch/config/${config._id}`)).statusCode).toBe(404);
  });
});

describe("zero-touch input and access", () => {
  it("refuses bad input with 400 and a contract code", async () => {
    for (const body of [
      {},
      { name: "" },
      { name: "Bad range", serial_ranges: [{ from: "2000", to: "1000" }] },
      { name: "Bad tag", tags: ["x"] },
      { name: "Bad model", models: ["a:b"] },
    ]) {
      const response = await f.post(f.admin, "/api/zerotouch/config/new", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ code: string }>().code).toMatch(/^[A-Z_]+$/);
    }
  });

  it("refuses another domain's template and a duplicate name", async () => {
    const foreign = await f.post(otherAdmin, "/api/template/new", { name: "theirs", text: "echo" });
    const response = await f.post(f.admin, "/api/zerotouch/config/new", {
      name: "Foreign template",
      template_id: foreign.json<{ _id: string }>()._id,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "COMMAND_TEMPLATE_MISSING" });
    await f.config({ name: "Twice" });
    const twice = await f.post(f.admin, "/api/zerotouch/config/new", { name: "twice" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: "RULE_ALREADY_EXISTS" });
  });

  it("401 without a session; 403 for superusers, assistants and operators", async () => {
    expect((await f.post(undefined, "/api/zerotouch/configs")).statusCode).toBe(401);
    expect((await f.post(undefined, "/api/zerotouch/adoptions")).statusCode).toBe(401);
    for (const role of [1, 3, 4] as const) {
      const token = await f.person(role);
      for (const url of ["/api/zerotouch/configs", "/api/zerotouch/adoptions", "/api/zerotouch/config/new"]) {
        const response = await f.post(token, url, { name: "Not mine" });
        expect(response.statusCode, `${role} ${url}`).toBe(403);
      }
    }
  });

  it("another domain's configuration and adoption are not found (404)", async () => {
    const { config, secret } = await f.config({ name: "Mine only", models: ["NEVER"] });
    const ident = uniqueIdent("ZO");
    await join(ident, ztCredentials(secret, config.key_id, ident, { model: "X", serial: "1", imei: "" }));
    const adoption = await f.t.db
      .selectFrom("zero_touch_adoptions")
      .select("id")
      .where("ident", "=", ident)
      .executeTakeFirstOrThrow();
    const one = await f.post(otherAdmin, `/api/zerotouch/config/${config._id}`);
    expect(one.statusCode).toBe(404);
    expect(one.json()).toMatchObject({ code: "RULE_NOT_FOUND" });
    expect(
      (await f.post(otherAdmin, `/api/zerotouch/config/${config._id}/save`, { name: "x" })).statusCode,
    ).toBe(404);
    expect((await f.post(otherAdmin, `/api/zerotouch/config/${config._id}/secret`)).statusCode).toBe(404);
    for (const verb of ["accept", "reject"]) {
      const response = await f.post(otherAdmin, `/api/zerotouch/adoption/${adoption.id}/${verb}`, {});
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "DEVICE_NOT_FOUND" });
    }
    const theirs = await f.post(otherAdmin, "/api/zerotouch/adoptions");
    expect(theirs.json<{ items: unknown[] }>().items).toHaveLength(0);
    expect((await f.post(f.admin, `/api/zerotouch/adoption/${adoption.id}/accept`, {})).statusCode).toBe(200);
    const twice = await f.post(f.admin, `/api/zerotouch/adoption/${adoption.id}/accept`, {});
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: "OPERATION_IS_NOT_SUPPORTED" });
  });

  it("keeps the domain's device limit: a matching router waits when the domain is full", async () => {
    const domain = await buildDomain(f.t, { device_limit: 1 });
    const admin = await f.person(2, domain.id);
    const made = await f.post(admin, "/api/zerotouch/config/new", { name: "Full" });
    const { config, secret } = made.json<{ config: ZeroTouchConfig; secret: string }>();
    const results: string[] = [];
    for (let i = 0; i < 2; i++) {
      const ident = uniqueIdent("ZL");
      const result = await join(
        ident,
        ztCredentials(secret, config.key_id, ident, { model: "", serial: `${i}`, imei: "" }),
      );
      results.push(result.ok ? "joined" : result.reason);
    }
    expect(results).toEqual(["joined", "adoption_pending"]);
  });
});
