import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActionsFixture, openActionsFixture } from "../actions/actions.test-support";

// The one event the server raises itself today, 'command needs approval', follows the domain's
// event types too: switched off, the event is kept but new to nobody (no badge for any user).

let f: ActionsFixture;
beforeAll(async () => {
  f = await openActionsFixture();
}, 60_000);
afterAll(async () => {
  await f.close();
}, 60_000);

describe("command_needs_approval switched off", () => {
  it("is stored quiet: the admin's unread count does not grow; switched on, it does", async () => {
    const admin = await f.person("admin");
    const junior = await f.person("junior");
    await f.device(["quiet"]);
    const unread = async () => (await f.post(admin.token, "/api/events/unread", {})).json().count as number;
    const ask = async () => {
      const created = await f.post(junior.token, "/api/command/new", {
        type: "reboot",
        targets: { tags: ["quiet"] },
      });
      expect(created.statusCode, created.body).toBe(200);
    };
    const off = await f.t.app.inject({
      method: "PATCH",
      url: "/api/event_type/command_needs_approval",
      headers: { token: admin.token },
      payload: { active: false },
    });
    expect(off.statusCode).toBe(200);
    const before = await unread();
    await ask();
    expect(await unread()).toBe(before);
    const rows = await f.t.db
      .selectFrom("events")
      .select(["is_quiet"])
      .where("kind", "=", "command_needs_approval")
      .where("author_id", "=", junior.id)
      .execute();
    expect(rows).toEqual([{ is_quiet: true }]);
    await f.t.app.inject({
      method: "PATCH",
      url: "/api/event_type/command_needs_approval",
      headers: { token: admin.token },
      payload: { active: true },
    });
    await ask();
    expect(await unread()).toBe(before + 1);
  }, 60_000);
});
