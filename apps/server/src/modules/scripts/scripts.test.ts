import { type CommandMessage, EXAMPLE_HELLO, helloTopic } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../test/factories";
import { type ActionsFixture, isCommandFinished, openActionsFixture } from "../actions/actions.test-support";
import { connectDevice, eventually } from "../ingest/ingest.test-support";

// Saved scripts and settings templates: versions, variables, roles, through the HTTP API and a real broker.

type Person = { id: string; token: string };
describe("saved scripts and settings templates", () => {
  let f: ActionsFixture;
  let admin: Person;
  let assistant: Person;
  let junior: Person;
  let operator: Person;
  beforeAll(async () => {
    f = await openActionsFixture();
    [admin, assistant, junior, operator] = await Promise.all([
      f.person("admin"),
      f.person("assistant"),
      f.person("junior"),
      f.person("operator"),
    ]);
  }, 60_000);
  afterAll(async () => {
    await f.close();
  }, 60_000);

  const executions = (commandId: string) => f.reports(admin.token, commandId);

  it("records the script's version a command used; a later save makes a new version", async () => {
    const created = await f.post(assistant.token, "/api/script/new", { name: "Uptime", text: "uptime" });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json()._id;
    expect(created.json()).toMatchObject({ kind: "script", version: 1, text: "uptime" });
    const device = await f.device();
    const router = await f.router(device);
    const heard: CommandMessage[] = [];
    router.on("command", (command) => heard.push(command));
    const v1 = await f.post(admin.token, "/api/command/new", {
      type: "shell",
      script_id: id,
      targets: { devices: [device.id] },
    });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json().script).toEqual({ _id: id, kind: "script", name: "Uptime", version: 1 });
    await f.waitForCommand(admin.token, v1.json()._id, isCommandFinished, "version 1");
    const saved = await f.post(admin.token, `/api/script/${id}/save`, {
      name: "Uptime",
      text: "uptime; date",
    });
    expect(saved.json()).toMatchObject({ version: 2, text: "uptime; date" });
    expect(saved.json().versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const v2 = await f.post(admin.token, "/api/command/new", {
      type: "shell",
      script_id: id,
      targets: { devices: [device.id] },
    });
    expect(v2.json().script.version).toBe(2);
    await f.waitForCommand(admin.token, v2.json()._id, isCommandFinished, "version 2");
    // A repeat publish of the same execution is the same command; count each once.
    const once = [...new Map(heard.map((command) => [command.id, command])).values()];
    expect(once.map((command) => command.args?.script)).toEqual(["uptime", "uptime; date"]);
    // The first command still says version 1.
    expect((await f.post(admin.token, `/api/command/${v1.json()._id}`)).json().script.version).toBe(1);
  });

  it("renders a template per router: device over tag over default; system variables are the router's", async () => {
    const [a, b, c] = [await f.device(["north"]), await f.device(["north"]), await f.device([])];
    const template = await f.post(admin.token, "/api/template/new", {
      name: "APN",
      text: "set apn={{apn}} host={{ident}} mtu={{mtu}}",
      defaults: { apn: "internet", mtu: "1500" },
      tag_values: { north: { apn: "north.apn" } },
      device_values: { [b.id]: { apn: "b.apn" } },
    });
    expect(template.statusCode, template.body).toBe(200);
    expect(template.json().variables).toEqual(["apn", "ident", "mtu"]);
    const id = template.json()._id;
    const dry = await f.post(admin.token, "/api/commands/dry-run", {
      type: "settings",
      template_id: id,
      targets: { devices: [a.id] },
    });
    expect(dry.json().rendered).toEqual({
      ident: a.ident,
      text: `set apn=north.apn host=${a.ident} mtu=1500`,
    });
    const routers = await Promise.all([a, b, c].map((device) => f.router(device)));
    const heard = new Map<string, string>();
    for (const [i, router] of routers.entries())
      router.on("command", (command) =>
        heard.set([a, b, c][i]?.ident as string, String(command.args?.script)),
      );
    const sent = await f.post(admin.token, "/api/command/new", {
      type: "settings",
      template_id: id,
      targets: { devices: [a.id, b.id, c.id] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().script).toMatchObject({ kind: "template", version: 1 });
    await f.waitForCommand(admin.token, sent.json()._id, isCommandFinished, "the settings");
    expect(heard.get(a.ident)).toBe(`set apn=north.apn host=${a.ident} mtu=1500`);
    expect(heard.get(b.ident)).toBe(`set apn=b.apn host=${b.ident} mtu=1500`);
    expect(heard.get(c.ident)).toBe(`set apn=internet host=${c.ident} mtu=1500`);
    const rows = await executions(sent.json()._id);
    expect(rows.find((row) => row.device._id === b.id)?.rendered).toBe(
      `set apn=b.apn host=${b.ident} mtu=1500`,
    );

    for (const values of [
      { defaults: { ident: "spoofed" } },
      { tag_values: { north: { model: "x" } } },
      { device_values: { [a.id]: { serial: "y" } } },
    ]) {
      const refused = await f.post(admin.token, `/api/template/${id}/save`, {
        name: "APN",
        text: "{{ident}}",
        ...values,
      });
      expect(refused.json().code).toBe("INVALID_VALUE_TYPE");
    }
    const missing = await f.post(admin.token, "/api/template/new", {
      name: "Missing",
      text: "x={{nothing}}",
    });
    const noValue = await f.post(admin.token, "/api/command/new", {
      type: "settings",
      template_id: missing.json()._id,
      targets: { devices: [a.id] },
    });
    expect(noValue.json().code).toBe("INVALID_VALUE_TYPE");
    await eventually(() => heard.size === 3, "three routers heard");
  });

  it("refuses a settings command without a template, or naming a missing or deleted one", async () => {
    const device = await f.device();
    const none = await f.post(admin.token, "/api/command/new", {
      type: "settings",
      targets: { devices: [device.id] },
    });
    expect([none.statusCode, none.json().code]).toEqual([400, "COMMAND_TEMPLATE_MISSING"]);
    const unknown = await f.post(admin.token, "/api/command/new", {
      type: "settings",
      template_id: "no-such-template",
      targets: { devices: [device.id] },
    });
    // A named script or template that does not exist is §8's 404 (issue 27), not a bad request.
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, "COMMAND_TEMPLATE_MISSING"]);
    const script = await f.post(admin.token, "/api/command/new", {
      type: "shell",
      script_id: "no-such-script",
      targets: { devices: [device.id] },
    });
    expect([script.statusCode, script.json().code]).toEqual([404, "COMMAND_TEMPLATE_MISSING"]);
    const template = await f.post(admin.token, "/api/template/new", { name: "Gone", text: "x" });
    const id = template.json()._id;
    const deleted = await f.t.app.inject({
      method: "DELETE",
      url: `/api/template/${id}`,
      headers: { token: admin.token },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const gone = await f.post(admin.token, "/api/command/new", {
      type: "settings",
      template_id: id,
      targets: { devices: [device.id] },
    });
    expect([gone.statusCode, gone.json().code]).toEqual([404, "COMMAND_TEMPLATE_MISSING"]);
  });

  it("lets each role do what spec section 6 says, and the demo user save nothing", async () => {
    const template = { name: "Roles", text: "x={{x}}", defaults: { x: "1" } };
    expect((await f.post(assistant.token, "/api/template/new", template)).json().code).toBe(
      "PERMISSION_DENIED",
    );
    expect((await f.post(operator.token, "/api/templates/")).json().code).toBe("PERMISSION_DENIED");
    expect((await f.post(operator.token, "/api/scripts/")).json().code).toBe("PERMISSION_DENIED");
    const created = await f.post(admin.token, "/api/template/new", template);
    expect(created.statusCode).toBe(200);
    const list = await f.post(junior.token, "/api/templates/");
    expect(list.json().items.map((row: { name: string }) => row.name)).toContain("Roles");
    expect((await f.post(junior.token, `/api/template/${created.json()._id}`)).json().version).toBe(1);
    expect((await f.post(junior.token, "/api/script/new", { name: "J", text: "id" })).statusCode).toBe(200);
    const demoUser = await buildUser(f.t, { role: 2, domainId: f.domainId, isDemo: true });
    const demo = await signIn(f.t.app, demoUser);
    expect((await f.post(demo, "/api/script/new", { name: "D", text: "id" })).json().code).toBe(
      "DEMO_PERMISSIONS_DENIED",
    );
    await eventually(async () => {
      const audit = await f.t.db
        .selectFrom("web_actions")
        .select("action")
        .where("author_id", "=", admin.id)
        .where("action", "=", "POST_template")
        .execute();
      return audit.length > 0;
    }, "the template's save audited");
  });

  it("treats another domain's script and template ids as missing", async () => {
    const script = await f.post(admin.token, "/api/script/new", { name: "Mine", text: "id" });
    const template = await f.post(admin.token, "/api/template/new", { name: "Mine", text: "id" });
    const other = await signIn(f.t.app, await buildUser(f.t, { role: 2 }));
    const sid = script.json()._id;
    const tid = template.json()._id;
    const foreignScript = await f.post(other, `/api/script/${sid}`);
    expect([foreignScript.statusCode, foreignScript.json().code]).toEqual([404, "COMMAND_TEMPLATE_MISSING"]);
    expect((await f.post(other, `/api/script/${sid}/save`, { name: "x", text: "y" })).json().code).toBe(
      "COMMAND_TEMPLATE_MISSING",
    );
    expect((await f.post(other, `/api/template/${tid}`)).json().code).toBe("COMMAND_TEMPLATE_MISSING");
    const device = await f.device();
    const foreign = await f.post(other, "/api/template/new", {
      name: "Foreign",
      text: "{{a}}",
      device_values: { [device.id]: { a: "1" } },
    });
    expect(foreign.json().code).toBe("DEVICE_NOT_FOUND");
    expect((await f.post(other, "/api/scripts/")).json().items).toEqual([]);
  });

  it("refuses a type a router's hello did not name (UNSUPPORTED_TASK_TYPE), and retrying an unapproved command", async () => {
    const device = await f.device();
    const client = await connectDevice(f.ingest.gateway.url, device.ident, device.token ?? undefined);
    await client.publishAsync(
      helloTopic(device.ident),
      JSON.stringify({ ...EXAMPLE_HELLO, seq: 1, ts: Date.now(), command_types: ["reboot", "backup"] }),
      { qos: 1 },
    );
    await eventually(async () => {
      const row = await f.t.db
        .selectFrom("devices")
        .select("command_types")
        .where("id", "=", device.id)
        .executeTakeFirstOrThrow();
      return row.command_types === "reboot,backup";
    }, "the hello's command types stored");
    const targets = { devices: [device.id] };
    const shell = await f.post(admin.token, "/api/commands/dry-run", {
      type: "shell",
      args: { script: "id" },
      targets,
    });
    expect(shell.json().code).toBe("UNSUPPORTED_TASK_TYPE");
    expect(shell.json().message).toContain(device.ident);
    const template = await f.post(admin.token, "/api/template/new", { name: "Unsupported", text: "x" });
    const settings = await f.post(admin.token, "/api/command/new", {
      type: "settings",
      template_id: template.json()._id,
      targets,
    });
    expect(settings.json().code).toBe("UNSUPPORTED_TASK_TYPE");
    expect((await f.post(admin.token, "/api/commands/dry-run", { type: "reboot", targets })).statusCode).toBe(
      200,
    );
    await client.endAsync();

    const waiting = await f.post(junior.token, "/api/command/new", { type: "reboot", targets });
    expect(waiting.json().status).toBe("unapproved");
    const retry = await f.post(junior.token, `/api/command/${waiting.json()._id}/retry-failed`);
    expect(retry.json().code).toBe("ACTION_NEED_APPROVED");
  });
});
