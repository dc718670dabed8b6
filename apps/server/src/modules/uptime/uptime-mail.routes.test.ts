import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, buildApiToken } from "../../test/api-token-factories";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { UPTIME_MAIL_FIRE_JOB } from "./uptime-mail.jobs";

// The monthly uptime mail's rules (ADR 044): admins only, like the crontab; the first occurrence is
// 06:00 on the next 1st of the domain's zone, queued with the rule.

let t: TestApp;
let admin: string;
let member: string;
let otherAdmin: string;

const call = (method: "POST" | "DELETE", url: string, who: string | null, payload?: object) =>
  t.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload }),
    ...(who === null ? {} : { headers: { token: who } }),
  });

const rule = {
  name: "Monthly to the customer",
  recipients: ["ops@customer.example"],
  scope: "domain",
  language: "en",
};

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  const domainId = (await buildDomain(t, { time_zone: "Europe/Moscow" })).id;
  const otherDomainId = (await buildDomain(t)).id;
  admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  member = await signIn(t.app, await buildUser(t, { role: 4, domainId }));
  otherAdmin = await signIn(t.app, await buildUser(t, { role: 2, domainId: otherDomainId }));
  await buildDevice(t, domainId, { tags: ["north"] });
});
afterAll(async () => {
  await t?.close();
});

describe("the monthly uptime mail's rules", () => {
  it("answers 401 without a session and 403 to a domain member", async () => {
    expect((await call("POST", "/api/uptime/mail-rules", null)).statusCode).toBe(401);
    expect((await call("POST", "/api/uptime/mail-rules", member)).statusCode).toBe(403);
    expect((await call("POST", "/api/uptime/mail-rule", member, rule)).statusCode).toBe(403);
  });

  it("refuses no recipient, a bad address, a tag rule without its tag and a tag no router has", async () => {
    for (const bad of [
      { ...rule, recipients: [] },
      { ...rule, recipients: ["not an address"] },
      { ...rule, scope: "tag" },
      { ...rule, scope: "tag", tag: "nowhere" },
      { ...rule, language: "de" },
    ]) {
      const answer = await call("POST", "/api/uptime/mail-rule", admin, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json().code).toBe("BAD_REQUEST");
    }
  });

  it("adds a rule due at 06:00 on the next 1st of the domain's zone, lists it, and deletes it", async () => {
    const created = await call("POST", "/api/uptime/mail-rule", admin, {
      ...rule,
      scope: "tag",
      tag: "north",
      recipients: ["Ops@Customer.example", "ops@customer.example", "boss@customer.example"],
    });
    expect(created.statusCode, created.body).toBe(200);
    const item = created.json().item;
    // The next 1st after the clock's now, 06:00 in Moscow (UTC+3 all year): 03:00Z.
    const now = t.clock.now();
    const thisFirst = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 3);
    const firstOfNext = new Date(
      thisFirst > now.getTime() ? thisFirst : Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 3),
    );
    expect(item).toMatchObject({
      name: rule.name,
      recipients: ["ops@customer.example", "boss@customer.example"],
      scope: "tag",
      tag: "north",
      language: "en",
      last_run: null,
      time_zone: "Europe/Moscow",
    });
    expect(item.next_run).toBe(firstOfNext.getTime());
    const queued = await t.db
      .selectFrom("jobs")
      .select("run_at")
      .where("kind", "=", UPTIME_MAIL_FIRE_JOB)
      .where(({ ref, eb }) => eb(ref("payload", "->>").key("ruleId" as never), "=", item._id))
      .execute();
    expect(queued.map((job) => job.run_at.getTime())).toEqual([firstOfNext.getTime()]);

    expect(
      (await call("POST", "/api/uptime/mail-rules", admin)).json().items.map((r: { _id: string }) => r._id),
    ).toEqual([item._id]);
    expect((await call("POST", "/api/uptime/mail-rules", otherAdmin)).json().items).toEqual([]);
    const foreign = await call("DELETE", `/api/uptime/mail-rule/${item._id}`, otherAdmin);
    expect(foreign.statusCode).toBe(404);
    expect((await call("DELETE", `/api/uptime/mail-rule/${item._id}`, admin)).json()).toEqual({ ok: true });
    expect((await call("POST", "/api/uptime/mail-rules", admin)).json().items).toEqual([]);
  });

  it("with an admin's token narrowed to a tag (ADR 041): only that tag's rules, made, listed and deleted", async () => {
    const scoped = bearer(await buildApiToken(t, admin, { tagScope: ["north"] }));
    const send = (method: "POST" | "DELETE", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: scoped, ...(payload === undefined ? {} : { payload }) });
    const whole = await send("POST", "/api/uptime/mail-rule", rule);
    expect([whole.statusCode, whole.json().code]).toEqual([403, "PERMISSION_DENIED"]);
    const mine = await send("POST", "/api/uptime/mail-rule", { ...rule, scope: "tag", tag: "north" });
    expect(mine.statusCode, mine.body).toBe(200);
    const mineId = mine.json().item._id as string;
    const domainRule = (await call("POST", "/api/uptime/mail-rule", admin, rule)).json().item._id as string;
    const listed = (await send("POST", "/api/uptime/mail-rules"))
      .json()
      .items.map((r: { _id: string }) => r._id);
    expect(listed).toEqual([mineId]);
    const outside = await send("DELETE", `/api/uptime/mail-rule/${domainRule}`);
    expect([outside.statusCode, outside.json().code]).toEqual([404, "TASK_NOT_FOUND"]);
    expect((await send("DELETE", `/api/uptime/mail-rule/${mineId}`)).json()).toEqual({ ok: true });
    expect((await call("DELETE", `/api/uptime/mail-rule/${domainRule}`, admin)).json()).toEqual({ ok: true });
  });
});
