import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInDemo } from "../../test/factories";
import {
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  signInPeople,
  startNotifyTest,
} from "./notifications.test-support";

// The rule routes (spec sections 2, 5, 6, 7): the list with its counts and the toggle that saves,
// drafts, the monitor's check_delay and variables, RULE_ALREADY_EXISTS and RULE_NOT_FOUND, roles
// and the plugin.

let n: NotifyTest;
let transportId: string;
let tokens: Record<string, string> = {};

beforeAll(async () => {
  n = await startNotifyTest();
  ({ tokens } = await signInPeople(n.t));
  transportId = await createTelegram(n.t.app, tokens.admin as string, { name: "Duty bot" });
});
afterAll(async () => {
  await n.close();
});

const admin = () => tokens.admin as string;

describe("notification rules", () => {
  it("creates a rule and lists it with the total and active counts", async () => {
    await createRule(n.t.app, admin(), {
      name: "Critical routers",
      monitor: { name: "device_status", variables: { status: "critical" } },
      transport_id: transportId,
      filter_tags: ["north"],
      tolerance_minutes: 5,
    });
    await createRule(n.t.app, admin(), {
      name: "Silent routers",
      active: false,
      monitor: { name: "connect", check_delay: 30 },
      transport_id: transportId,
    });
    const list = await call(n.t.app, admin(), "/api/notifications/rules", {});
    expect(list.body).toMatchObject({ total: 2, active: 1 });
    expect(list.body.items[0]).toMatchObject({
      name: "Critical routers",
      active: true,
      draft: false,
      monitor: {
        name: "device_status",
        type: "reactive",
        check_delay: null,
        variables: { status: "critical" },
      },
      transport: { _id: transportId, name: "Duty bot", type: "telegram" },
      filter_tags: ["north"],
      tolerance_minutes: 5,
      open_incidents: 0,
      create_date: expect.any(Number),
    });
    expect(list.body.items[1].monitor).toMatchObject({ name: "connect", type: "timer", check_delay: 30 });
    const searched = await call(n.t.app, admin(), "/api/notifications/rules", { search: "silent" });
    expect(searched.body.items.map((rule: { name: string }) => rule.name)).toEqual(["Silent routers"]);
    expect(searched.body.total).toBe(2);
  });

  it("saves the list's toggle with PATCH (spec section 7)", async () => {
    const id = await createRule(n.t.app, admin(), {
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    const off = await call(n.t.app, admin(), `/api/notifications/rule/${id}`, { active: false }, "PATCH");
    expect(off.body).toMatchObject({ _id: id, active: false });
    const read = await call(n.t.app, admin(), `/api/notifications/rule/${id}`);
    expect(read.body.active).toBe(false);
    const bad = await call(n.t.app, admin(), `/api/notifications/rule/${id}`, { active: "yes" }, "PATCH");
    expect(bad.status).toBe(400);
  });

  it("judges check_delay and the variables by their rules (spec section 5)", async () => {
    const create = (monitor: object) =>
      call(n.t.app, admin(), "/api/notifications/rule/new", {
        name: `r${Math.random()}`,
        monitor,
        transport_id: transportId,
      });
    expect((await create({ name: "connect" })).body.message).toContain("check_delay: required");
    expect((await create({ name: "connect", check_delay: 0 })).body.message).toContain("checkDelayInvalid");
    expect((await create({ name: "connect", check_delay: 1.5 })).body.message).toContain("checkDelayInvalid");
    expect((await create({ name: "device_status", variables: { status: "purple" } })).body.message).toContain(
      "patternMismatch",
    );
    expect((await create({ name: "device_event", variables: { kind: "made_up" } })).body.message).toContain(
      "patternMismatch",
    );
    expect((await create({ name: "device_event", variables: { nonsense: "x" } })).body.message).toContain(
      "unknownVariable",
    );
    expect((await create({ name: "nope" })).status).toBe(400);
    const missing = await call(n.t.app, admin(), "/api/notifications/rule/new", {
      name: "No provider",
      monitor: { name: "device_connected" },
    });
    expect(missing.body).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("transport_id: required"),
    });
    const foreign = await call(n.t.app, tokens.otherAdmin as string, "/api/notifications/rule/new", {
      name: "Borrowed",
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    expect(foreign.body.code).toBe("TRANSPORT_NOT_FOUND");
  });

  it("saves a draft without what it still lacks, never runs it, and reloads it", async () => {
    const draft = await call(n.t.app, admin(), "/api/notifications/rule/new", {
      name: "Half done",
      draft: true,
      monitor: { name: "check_interval", variables: { status: "warning" } },
    });
    expect(draft.body).toMatchObject({
      draft: true,
      active: false,
      transport: null,
      monitor: { check_delay: null },
    });
    const on = await call(
      n.t.app,
      admin(),
      `/api/notifications/rule/${draft.body._id}`,
      { active: true },
      "PATCH",
    );
    expect(on.body.code).toBe("NOT_ENOUGH_PARAMS");
    const reloaded = await call(n.t.app, admin(), `/api/notifications/rule/${draft.body._id}`);
    expect(reloaded.body.monitor.variables).toEqual({ status: "warning" });
    const finished = await call(
      n.t.app,
      admin(),
      `/api/notifications/rule/${draft.body._id}`,
      {
        name: "Half done",
        monitor: { name: "check_interval", check_delay: 12, variables: { status: "warning" } },
        transport_id: transportId,
      },
      "PUT",
    );
    expect(finished.body).toMatchObject({ draft: false, active: true, monitor: { check_delay: 12 } });
    const wrong = await call(n.t.app, admin(), "/api/notifications/rule/new", {
      name: "Bad draft",
      draft: true,
      monitor: { name: "connect", check_delay: 0 },
    });
    expect(wrong.status).toBe(400);
  });

  it("refuses a taken name (RULE_ALREADY_EXISTS) and an unknown rule (RULE_NOT_FOUND)", async () => {
    await createRule(n.t.app, admin(), {
      name: "Unique",
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    const twin = await call(n.t.app, admin(), "/api/notifications/rule/new", {
      name: "unique",
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    expect(twin).toMatchObject({ status: 409, body: { code: "RULE_ALREADY_EXISTS" } });
    const missing = await call(
      n.t.app,
      admin(),
      "/api/notifications/rule/00000000-0000-4000-8000-000000000000",
    );
    expect(missing).toMatchObject({ status: 404, body: { code: "RULE_NOT_FOUND" } });
  });

  it("keeps rules to their domain", async () => {
    const id = await createRule(n.t.app, admin(), {
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    for (const [method, body] of [
      ["POST", {}],
      ["PATCH", { active: false }],
      ["DELETE", {}],
    ] as const) {
      const other = await call(
        n.t.app,
        tokens.otherAdmin as string,
        `/api/notifications/rule/${id}`,
        body,
        method,
      );
      expect(other.body.code, method).toBe("RULE_NOT_FOUND");
    }
    const list = await call(n.t.app, tokens.otherAdmin as string, "/api/notifications/rules");
    expect(list.body).toEqual({ items: [], total: 0, active: 0 });
  });

  it("lets assistants edit rules, operators only read, and the demo user save nothing", async () => {
    const assistant = await call(n.t.app, tokens.assistant as string, "/api/notifications/rule/new", {
      name: "By the assistant",
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    expect(assistant.status).toBe(200);
    const operator = await call(n.t.app, tokens.operator as string, "/api/notifications/rule/new", {
      name: "By the operator",
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    expect(operator.status).toBe(403);
    const toggle = await call(
      n.t.app,
      tokens.operator as string,
      `/api/notifications/rule/${assistant.body._id}`,
      { active: false },
      "PATCH",
    );
    expect(toggle.status).toBe(403);
    expect(
      (await call(n.t.app, tokens.operator as string, "/api/notifications/rules")).body.total,
    ).toBeGreaterThan(0);
    const demo = await signInDemo(n.t.app);
    const demoCreate = await call(n.t.app, demo, "/api/notifications/rule/new", {
      name: "Demo",
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    expect(demoCreate.body.code).toBe("DEMO_PERMISSIONS_DENIED");
  });

  it("lists nothing without the notification plugin, and refuses its pages", async () => {
    expect((await call(n.t.app, tokens.noPlugin as string, "/api/notifications/rules")).body).toEqual({
      items: [],
      total: 0,
      active: 0,
    });
    const create = await call(n.t.app, tokens.noPlugin as string, "/api/notifications/rule/new", {
      name: "x",
      monitor: { name: "device_connected" },
      transport_id: transportId,
    });
    expect(create.status).toBe(403);
    expect((await call(n.t.app, tokens.noPlugin as string, "/api/notifications/news")).body).toEqual({
      items: [],
      unseen: 0,
      seen_until: null,
    });
  });

  it("gives superusers account monitors only, on providers of their own", async () => {
    const rootTransport = await createTelegram(n.t.app, tokens.root as string, { name: "Root bot" });
    const device = await call(n.t.app, tokens.root as string, "/api/notifications/rule/new", {
      name: "Root devices",
      monitor: { name: "device_status" },
      transport_id: rootTransport,
    });
    expect(device.body.code).toBe("OPERATION_IS_NOT_SUPPORTED");
    const accounts = await createRule(n.t.app, tokens.root as string, {
      name: "Root passwords",
      monitor: { name: "password_expired" },
      transport_id: rootTransport,
    });
    const list = await call(n.t.app, tokens.root as string, "/api/notifications/rules");
    expect(list.body.items.map((rule: { _id: string }) => rule._id)).toEqual([accounts]);
    const domainTransport = await call(
      n.t.app,
      tokens.root as string,
      `/api/notifications/transport/${transportId}`,
    );
    expect(domainTransport.status).toBe(404);
  });
});
