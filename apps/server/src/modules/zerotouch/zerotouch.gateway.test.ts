import { deriveDeviceToken } from "@cellfleet/contract";
import { VirtualRouter } from "@cellfleet/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, uniqueIdent } from "../ingest/ingest.test-support";
import {
  openZeroTouchFixture,
  type ZeroTouchFixture,
  ztCredentials,
  ztDeviceKey,
} from "./zerotouch.test-support";

// Zero-touch over the embedded MQTT broker: joining, refusals, the adoption list (ADR 023).

let f: ZeroTouchFixture;
let secret: string;
let keyId: string;
let configId: string;
const routers: VirtualRouter[] = [];

beforeAll(async () => {
  f = await openZeroTouchFixture();
  const templateId = await f.template("zt-base", "uci set system.@system[0].hostname='{{ident}}'");
  const answer = await f.config({
    name: "North batch",
    tags: ["zt-north"],
    template_id: templateId,
    models: ["RUT955"],
    serial_ranges: [{ from: "1000", to: "1999" }],
  });
  secret = answer.secret;
  keyId = answer.config.key_id;
  configId = answer.config._id;
}, 60_000);

afterAll(async () => {
  await Promise.all(routers.map((router) => router.stop()));
  await f?.close();
});

function deviceOf(ident: string) {
  return f.t.db.selectFrom("devices").selectAll().where("ident", "=", ident).executeTakeFirst();
}

function adoptionOf(ident: string) {
  return f.t.db.selectFrom("zero_touch_adoptions").selectAll().where("ident", "=", ident).executeTakeFirst();
}

async function refusal(ident: string, credentials: { username: string; password: string }): Promise<string> {
  const error = await f.connect(ident, credentials).then(
    () => null,
    (e: Error) => e,
  );
  expect(error, "the broker refused the connection").not.toBeNull();
  return String(error?.message);
}

describe("zero-touch over the embedded broker", () => {
  it("a matching router joins in the configuration's domain with its tags and runs the template", async () => {
    const ident = uniqueIdent("ZT");
    const credentials = ztCredentials(secret, keyId, ident, { model: "RUT955", serial: "1500", imei: "" });
    const router = new VirtualRouter({
      ident,
      key: "0".repeat(64),
      url: f.ingest.gateway.url,
      autoTick: false,
      commandDelayMs: 20,
      reconnectPeriodMs: 100,
      credentials,
      claim: { model: "RUT955", serial: "1500" },
    });
    routers.push(router);
    await router.start();
    await eventually(() => router.stats.connected, `${ident} connected`);
    // Its hello (the router's own model and serial, as it claimed them) is stored over the join's row.
    await eventually(async () => (await deviceOf(ident))?.firmware != null, `${ident}'s hello stored`);
    const device = await deviceOf(ident);
    expect(device?.domain_id).toBe(f.domainId);
    expect(device?.tags).toEqual(["zt-north"]);
    expect(device?.model).toBe("RUT955");
    expect(device?.serial).toBe("1500");
    expect(device?.zero_touch_config_id).toBe(configId);
    expect(device?.aes_key).toBe(ztDeviceKey(secret, ident).toUpperCase());
    const command = await f.t.db
      .selectFrom("commands")
      .innerJoin("command_executions as e", "e.command_id", "commands.id")
      .select([
        "commands.type",
        "commands.script_name",
        "commands.needs_approval",
        "e.rendered",
        "e.id as eid",
      ])
      .where("e.device_id", "=", device?.id ?? "")
      .executeTakeFirstOrThrow();
    expect(command).toMatchObject({ type: "settings", script_name: "zt-base", needs_approval: false });
    expect(command.rendered).toBe(`uci set system.@system[0].hostname='${ident}'`);
    await eventually(
      async () =>
        (
          await f.t.db
            .selectFrom("command_executions")
            .select("status")
            .where("id", "=", command.eid)
            .executeTakeFirstOrThrow()
        ).status === "completed",
      "the settings command completed on the router",
      15_000,
    );
    const config = await f.post(f.admin, `/api/zerotouch/config/${configId}`);
    expect(config.json<{ joined: number }>().joined).toBeGreaterThanOrEqual(1);
    // Once joined, the router's own key works with the ordinary credentials too.
    const token = await deriveDeviceToken(ident, ztDeviceKey(secret, ident));
    await router.stop();
    const plain = await f.connect(ident, { username: ident, password: token });
    expect(plain.connected).toBe(true);
    await plain.endAsync();
    // And its zero-touch credentials again, with no second device and no second command.
    const again = await f.connect(ident, credentials);
    expect(again.connected).toBe(true);
    await again.endAsync();
    const commands = await f.t.db
      .selectFrom("command_executions")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("device_id", "=", device?.id ?? "")
      .executeTakeFirstOrThrow();
    expect(Number(commands.n)).toBe(1);
  }, 30_000);

  it("refuses a wrong derived password, an unknown key id and a malformed user name, and records nothing", async () => {
    const ident = uniqueIdent("ZT");
    const good = ztCredentials(secret, keyId, ident, { model: "RUT955", serial: "1200", imei: "" });
    const wrongSecret = ztCredentials("ab".repeat(32), keyId, ident, {
      model: "RUT955",
      serial: "1200",
      imei: "",
    });
    expect(await refusal(ident, wrongSecret)).toMatch(/bad username or password|Not authorized/i);
    // A password of another ident (signed for someone else) is wrong for this one.
    const other = ztCredentials(secret, keyId, `${ident}X`, { model: "RUT955", serial: "1200", imei: "" });
    await refusal(ident, { username: good.username, password: other.password });
    // A claim changed after signing (a serial moved into the range) breaks the signature.
    const signedOutside = ztCredentials(secret, keyId, ident, { model: "RUT955", serial: "5000", imei: "" });
    await refusal(ident, { username: good.username, password: signedOutside.password });
    await refusal(
      ident,
      ztCredentials(secret, "0123456789ab", ident, { model: "RUT955", serial: "1200", imei: "" }),
    );
    await refusal(ident, { username: `zt1:${keyId}:RUT955`, password: good.password });
    expect(await deviceOf(ident)).toBeUndefined();
    expect(await adoptionOf(ident)).toBeUndefined();
    expect(f.ingest.gateway.counters.snapshot().refused.bad_token).toBeGreaterThanOrEqual(4);
  });

  it("an unmatched router waits in the adoption list; accepted, it gets in at its next connect", async () => {
    const ident = uniqueIdent("ZT");
    const credentials = ztCredentials(secret, keyId, ident, {
      model: "RUT955",
      serial: "2500",
      imei: "356938035643809",
    });
    await refusal(ident, credentials);
    await refusal(ident, credentials);
    const waiting = await adoptionOf(ident);
    expect(waiting).toMatchObject({ status: "pending", domain_id: f.domainId, serial: "2500", attempts: 2 });
    expect(await deviceOf(ident)).toBeUndefined();
    const list = await f.post(f.admin, "/api/zerotouch/adoptions", { status: "pending" });
    expect(list.json<{ items: { ident: string }[] }>().items.map((item) => item.ident)).toContain(ident);

    const accepted = await f.post(f.admin, `/api/zerotouch/adoption/${waiting?.id}/accept`, {
      tags: ["zt-south"],
      apply_template: false,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: "accepted" });
    const device = await deviceOf(ident);
    expect(device).toMatchObject({ domain_id: f.domainId, tags: ["zt-south"], serial: "2500" });
    const client = await f.connect(ident, credentials);
    expect(client.connected).toBe(true);
    await client.endAsync();
    const commands = await f.t.db
      .selectFrom("command_executions")
      .select("id")
      .where("device_id", "=", device?.id ?? "")
      .execute();
    expect(commands).toHaveLength(0);
  });

  it("a model with a space (the simulator's 'LtAP LTE6') is a claim, not a bad user name (issue 25)", async () => {
    const ident = uniqueIdent("ZT");
    const before = f.ingest.gateway.counters.snapshot().refused.bad_username;
    const credentials = ztCredentials(secret, keyId, ident, { model: "LtAP LTE6", serial: "1300", imei: "" });
    await refusal(ident, credentials);
    // Not among the configuration's models: it waits for an admin, with its model as it said it.
    expect(await adoptionOf(ident)).toMatchObject({ status: "pending", model: "LtAP LTE6", serial: "1300" });
    expect(f.ingest.gateway.counters.snapshot().refused.bad_username).toBe(before);
  });

  it("a rejected router is refused until accepted", async () => {
    const ident = uniqueIdent("ZT");
    const credentials = ztCredentials(secret, keyId, ident, { model: "OTHER", serial: "1100", imei: "" });
    await refusal(ident, credentials);
    const waiting = await adoptionOf(ident);
    const rejected = await f.post(f.admin, `/api/zerotouch/adoption/${waiting?.id}/reject`);
    expect(rejected.statusCode, rejected.body).toBe(200);
    await refusal(ident, credentials);
    expect(await adoptionOf(ident)).toMatchObject({ status: "rejected", attempts: 2 });
    expect(await deviceOf(ident)).toBeUndefined();
    expect(f.ingest.gateway.counters.snapshot().refused.adoption_rejected).toBeGreaterThanOrEqual(1);
    const accepted = await f.post(f.admin, `/api/zerotouch/adoption/${waiting?.id}/accept`, { tags: [] });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const client = await f.connect(ident, credentials);
    expect(client.connected).toBe(true);
    await client.endAsync();
  });

  it("writes the audit rows of joining, waiting, accepting and rejecting", async () => {
    await f.t.app.auditLog.settle();
    const rows = await f.t.db
      .selectFrom("web_actions")
      .select(["action", "author", "status", "info"])
      .where("domain_id", "=", f.domainId)
      .where("action", "like", "%zerotouch")
      .execute();
    const actions = rows.map((row) => row.action);
    expect(actions).toContain("JOIN_zerotouch");
    expect(actions).toContain("WAIT_zerotouch");
    expect(actions.filter((action) => action === "POST_zerotouch").length).toBeGreaterThanOrEqual(4);
    const join = rows.find((row) => row.action === "JOIN_zerotouch");
    expect(join).toMatchObject({ author: "zero-touch", status: "SUCCESS" });
    expect(join?.info).toMatchObject({ config: "North batch", tags: ["zt-north"] });
  });
});
