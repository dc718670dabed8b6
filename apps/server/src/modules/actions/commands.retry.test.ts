import {
  COMMAND_CODES,
  type CommandMessage,
  commandTopic,
  EXAMPLE_HELLO,
  helloTopic,
} from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDevice, eventually } from "../ingest/ingest.test-support";
import { type ActionsFixture, isCommandFinished, openActionsFixture } from "./actions.test-support";

// 'Retry the failed ones' through the real broker: the retry repeats what the command sent, at the
// script or template version the command recorded, to the routers that failed. And a type some
// targets cannot run: they fail unsent, the others run it.

describe("retrying a command's failed executions", { timeout: 30_000 }, () => {
  let f: ActionsFixture;
  let admin: { id: string; token: string };
  beforeAll(async () => {
    f = await openActionsFixture();
    admin = await f.person("admin");
  }, 60_000);
  afterAll(async () => {
    await f.close();
  }, 60_000);

  /** A router whose every command fails, and the scripts it heard (each execution once). */
  async function failingRouter() {
    const device = await f.device();
    const router = await f.router(device, { commandFailRate: 1 });
    const heard = new Map<string, string>();
    router.on("command", (command: CommandMessage) => heard.set(command.id, String(command.args.script)));
    return { device, heard: () => [...heard.values()] };
  }

  async function sendAndFail(body: Record<string, unknown>) {
    const sent = await f.post(admin.token, "/api/command/new", body);
    expect(sent.statusCode, sent.body).toBe(200);
    const done = await f.waitForCommand(admin.token, sent.json()._id, isCommandFinished, String(body.type));
    expect(done.status).toBe("failed");
    return done;
  }

  async function retry(commandId: string) {
    const retried = await f.post(admin.token, `/api/command/${commandId}/retry-failed`);
    expect(retried.statusCode, retried.body).toBe(200);
    return f.waitForCommand(admin.token, retried.json()._id, isCommandFinished, "the retry");
  }

  it("renders a settings template again at the version the command used, not the latest", async () => {
    const { device, heard } = await failingRouter();
    const template = await f.post(admin.token, "/api/template/new", {
      name: "Hostname",
      text: "uci set system.@system[0].hostname={{name}}",
      defaults: { name: "one" },
    });
    const id = template.json()._id;
    const first = await sendAndFail({ type: "settings", template_id: id, targets: { devices: [device.id] } });
    expect(first.script).toMatchObject({ _id: id, kind: "template", version: 1 });
    const saved = await f.post(admin.token, `/api/template/${id}/save`, {
      name: "Hostname",
      text: "uci set system.@system[0].hostname=v2-{{name}}",
      defaults: { name: "two" },
    });
    expect(saved.json().version).toBe(2);

    const again = await retry(first._id);
    expect(again.script).toMatchObject({ _id: id, kind: "template", version: 1 });
    await eventually(() => heard().length === 2, "the retry heard");
    expect(heard()).toEqual([
      "uci set system.@system[0].hostname=one",
      "uci set system.@system[0].hostname=one",
    ]);
    // A new command (not a retry) takes the latest version.
    const fresh = await sendAndFail({ type: "settings", template_id: id, targets: { devices: [device.id] } });
    expect(fresh.script?.version).toBe(2);
    await eventually(() => heard().length === 3, "the new command heard");
    expect(heard()[2]).toBe("uci set system.@system[0].hostname=v2-two");
  });

  it("sends a saved script again at the version used, and records it on the retry", async () => {
    const { device, heard } = await failingRouter();
    const script = await f.post(admin.token, "/api/script/new", { name: "Modem", text: "gsmctl -q" });
    const id = script.json()._id;
    const first = await sendAndFail({ type: "shell", script_id: id, targets: { devices: [device.id] } });
    expect(first.script).toMatchObject({ _id: id, kind: "script", version: 1 });
    await f.post(admin.token, `/api/script/${id}/save`, { name: "Modem", text: "gsmctl -q; gsmctl -o" });

    const again = await retry(first._id);
    expect(again.script).toMatchObject({ _id: id, kind: "script", version: 1 });
    await eventually(() => heard().length === 2, "the retry heard");
    expect(heard()).toEqual(["gsmctl -q", "gsmctl -q"]);
    // The retry of the retry is still version 1.
    expect((await retry(again._id)).script?.version).toBe(1);
  });

  it("runs a type on the routers that support it; one whose hello does not name it fails unsent", async () => {
    const able = await f.device(["mixed"]);
    await f.router(able);
    const limited = await f.device(["mixed"]);
    const client = await connectDevice(f.ingest.gateway.url, limited.ident, limited.token ?? undefined);
    const published: string[] = [];
    client.on("message", (topic) => published.push(topic));
    await client.subscribeAsync(commandTopic(limited.ident), { qos: 1 });
    await client.publishAsync(
      helloTopic(limited.ident),
      JSON.stringify({ ...EXAMPLE_HELLO, seq: 1, ts: Date.now(), command_types: ["reboot", "backup"] }),
      { qos: 1 },
    );
    await eventually(async () => {
      const row = await f.t.db
        .selectFrom("devices")
        .select("command_types")
        .where("id", "=", limited.id)
        .executeTakeFirstOrThrow();
      return row.command_types === "reboot,backup";
    }, "the hello's command types stored");
    const body = { type: "shell", args: { script: "uptime" }, targets: { tags: ["mixed"] } };
    const dry = await f.post(admin.token, "/api/commands/dry-run", body);
    expect(dry.json()).toMatchObject({ targets: 2, unsupported: 1 });
    const only = await f.post(admin.token, "/api/command/new", {
      ...body,
      targets: { devices: [limited.id] },
    });
    expect(only.json().code).toBe("UNSUPPORTED_TASK_TYPE");
    expect(only.json().message).toContain(limited.ident);

    const sent = await f.post(admin.token, "/api/command/new", body);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().total).toBe(2);
    const done = await f.waitForCommand(admin.token, sent.json()._id, isCommandFinished, "the mixed command");
    expect(done.status).toBe("failed");
    expect(done.counts).toEqual({ completed: 1, failed: 1 });
    const rows = await f.reports(admin.token, done._id);
    const byDevice = new Map(rows.map((row) => [row.device._id, row]));
    expect(byDevice.get(able.id)).toMatchObject({ status: "completed", code: 0 });
    expect(byDevice.get(limited.id)).toMatchObject({
      status: "failed",
      code: COMMAND_CODES.unsupported,
      attempts: 0,
    });
    // Retrying the failed ones would go to that router alone, which cannot run it: refused as a whole.
    const again = await f.post(admin.token, `/api/command/${done._id}/retry-failed`);
    expect(again.json()).toMatchObject({ code: "UNSUPPORTED_TASK_TYPE" });
    expect(again.json().message).toContain(limited.ident);
    expect(published).toEqual([]);
    await client.endAsync();
  });
});
