import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../test/factories";
import {
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  signInPeople,
  startNotifyTest,
} from "./notifications.test-support";

// Issue 30, ADR 041: a person limited to tags watches only their routers. They make and change
// only rules whose routers all carry their tags (a rule of those tags; one for all routers or another
// tag is PERMISSION_DENIED), and read, count, export, switch and delete no other rule (RULE_NOT_FOUND).

let n: NotifyTest;
let admin: string;
let limited: string;
let transportId: string;
let southRule: string;
let allRule: string;

beforeAll(async () => {
  n = await startNotifyTest();
  const people = await signInPeople(n.t);
  admin = people.tokens.admin as string;
  limited = await signIn(
    n.t.app,
    await buildUser(n.t, { role: 3, domainId: people.domainId, tagScope: ["north"] }),
  );
  transportId = await createTelegram(n.t.app, admin, { name: "Duty bot" });
  const rule = (name: string, filterTags: string[]) =>
    createRule(n.t.app, admin, {
      name,
      monitor: { name: "device_connected" },
      transport_id: transportId,
      filter_tags: filterTags,
    });
  southRule = await rule("South routers", ["south"]);
  allRule = await rule("All routers", []);
  await rule("North routers", ["north"]);
});
afterAll(async () => {
  await n.close();
});

describe("notification rules of a person limited to tags", () => {
  it("lists, counts and exports only rules of their tags", async () => {
    const list = await call(n.t.app, limited, "/api/notifications/rules", {});
    expect(list.status).toBe(200);
    expect(list.body.items.map((rule: { name: string }) => rule.name)).toEqual(["North routers"]);
    expect(list.body).toMatchObject({ total: 1, active: 1 });
    expect((await call(n.t.app, admin, "/api/notifications/rules", {})).body.total).toBe(3);
    const csv = await n.t.app.inject({
      method: "POST",
      url: "/api/notifications/rules/export",
      headers: { token: limited },
      payload: {},
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain("North routers");
    expect(csv.body).not.toContain("South routers");
    expect(csv.body).not.toContain("All routers");
  });

  it("reads, switches and deletes no other rule: RULE_NOT_FOUND", async () => {
    for (const id of [southRule, allRule]) {
      for (const [payload, method] of [
        [{}, "POST"],
        [{ active: false }, "PATCH"],
        [{}, "DELETE"],
      ] as const) {
        const answer = await call(n.t.app, limited, `/api/notifications/rule/${id}`, payload, method);
        expect([answer.status, answer.body.code], `${method} ${id}`).toEqual([404, "RULE_NOT_FOUND"]);
      }
    }
    expect((await call(n.t.app, admin, `/api/notifications/rule/${southRule}`)).body.active).toBe(true);
  });

  it("makes a rule of their tags, and is refused one for all routers or another tag", async () => {
    const body = (filterTags: string[]) => ({
      name: `Mine ${filterTags.join(",")}`,
      monitor: { name: "device_connected" },
      transport_id: transportId,
      filter_tags: filterTags,
    });
    for (const wider of [[], ["south"], ["north", "south"]]) {
      const refused = await call(n.t.app, limited, "/api/notifications/rule/new", body(wider));
      expect([refused.status, refused.body.code], JSON.stringify(wider)).toEqual([403, "PERMISSION_DENIED"]);
    }
    const made = await call(n.t.app, limited, "/api/notifications/rule/new", body(["north"]));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const widened = await call(
      n.t.app,
      limited,
      `/api/notifications/rule/${made.body._id}`,
      body(["south"]),
      "PUT",
    );
    expect([widened.status, widened.body.code]).toEqual([403, "PERMISSION_DENIED"]);
  });
});
