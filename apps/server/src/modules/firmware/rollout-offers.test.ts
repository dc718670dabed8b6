import type { RolloutOffer, RolloutProgress } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { eventually, type TestDevice } from "../ingest/ingest.test-support";
import { openRolloutFixture, type RolloutFixture } from "./rollout.test-support";

// Root's rollout across customers (issue 27 item 1, ADR 031): offered to each domain, sent to a
// domain's routers only once it accepted (by its admin, now or in its window, or by its setting),
// never to one that did not. Real routers over MQTT, real fw_update commands.

const commandsTo = async (r: RolloutFixture, devices: readonly TestDevice[]) =>
  (
    await r.f.t.db
      .selectFrom("command_executions")
      .select("device_id")
      .where(
        "device_id",
        "in",
        devices.map((device) => device.id),
      )
      .execute()
  ).map((row) => row.device_id);

const domainOf = (p: RolloutProgress, domainId: string) =>
  p.domains.find((domain) => domain.domain_id === domainId);

describe("rollouts offered to domains", () => {
  let r: RolloutFixture;
  const adminOf = async (domainId: string, role: 2 | 4 = 2) =>
    signIn(r.f.t.app, await buildUser(r.f.t, { role, domainId }));
  const offers = async (token: string) => {
    const answer = await r.f.post(token, "/api/rollout-offers");
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ items: RolloutOffer[] }>().items;
  };

  beforeAll(async () => {
    r = await openRolloutFixture();
  }, 60_000);
  afterAll(async () => r?.close());

  it("sends nothing to a domain that has not accepted, while a domain that accepts by its setting is updated; a decline skips its routers", async () => {
    const customer = (await buildDomain(r.f.t, { name: "customer-a" })).id;
    const { devices, models } = await r.fleet(4, undefined, (i) => (i % 2 ? customer : r.f.domainId));
    // The customer's admin never asked for it: its domain does not accept by itself.
    await r.setRolloutSetting(customer, { auto_accept: false, window: null });
    const theirs = devices.filter((device) => device.domainId === customer);
    const ours = devices.filter((device) => device.domainId === r.f.domainId);
    const ruleId = await r.readyRule(models, "RUT9_R_98.01.00");

    // Root offers it to every domain: the canary of three takes routers of both.
    const id = await r.start(ruleId, {
      canary: { count: 3 },
      waveSize: 1,
      successRate: 1,
      errorBudget: 0,
      concurrency: 10,
    });
    const ourDone = await r.waitFor(
      id,
      (p) => (domainOf(p, r.f.domainId)?.succeeded ?? 0) === 2,
      "the accepting domain's routers updated",
    );
    expect(domainOf(ourDone, r.f.domainId)).toMatchObject({ state: "accepted", auto: true });
    expect(domainOf(ourDone, customer)).toMatchObject({
      name: "customer-a",
      state: "offered",
      waiting: 2,
      sent: 0,
    });
    expect(ourDone.held.offer).toBe(2);
    // An advance later the customer's routers still have no command, and the rollout waits.
    const later = await r.waitFor(id, (p) => p.update_time !== ourDone.update_time, "an advance later");
    expect(later.status).toBe("running");
    expect(await commandsTo(r, theirs)).toEqual([]);
    expect((await commandsTo(r, ours)).sort()).toEqual(ours.map((device) => device.id).sort());

    // The customer's admin sees the offer; an operator may not decide, another domain's admin has none.
    const admin = await adminOf(customer);
    const [offer] = await offers(admin);
    expect(offer).toMatchObject({ _id: id, state: "offered", routers: 2, version: "RUT9_R_98.01.00" });
    const operator = await adminOf(customer, 4);
    expect((await r.f.post(operator, `/api/rollout/${id}/decline`)).statusCode).toBe(403);
    const stranger = await adminOf((await buildDomain(r.f.t)).id);
    const foreign = await r.f.post(stranger, `/api/rollout/${id}/accept`, { window: null });
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, "TASK_NOT_FOUND"]);

    // Declined: its routers are skipped, and the rollout completes without them.
    const declined = await r.f.post(admin, `/api/rollout/${id}/decline`);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().items[0]).toMatchObject({ _id: id, state: "declined" });
    const done = await r.waitFor(id, (p) => p.status === "completed", "the rollout completed");
    expect(domainOf(done, customer)).toMatchObject({ state: "declined", skipped: 2, sent: 0 });
    expect(await commandsTo(r, theirs)).toEqual([]);
    const again = await r.f.post(admin, `/api/rollout/${id}/accept`, { window: null });
    expect(again.json().code).toBe("OPERATION_IS_NOT_SUPPORTED");
  }, 120_000);

  it("an admin's acceptance in the domain's own window sends only inside it; a domain whose setting accepts in its window is held to it", async () => {
    const manual = (await buildDomain(r.f.t, { name: "customer-b" })).id;
    const automatic = (await buildDomain(r.f.t, { name: "customer-c" })).id;
    const { devices, models } = await r.fleet(4, undefined, (i) => (i % 2 ? manual : automatic));
    await r.setRolloutSetting(manual, { auto_accept: false, window: null });
    // 02:00-04:00 in the domain's zone (UTC here).
    await r.setRolloutSetting(automatic, { auto_accept: true, window: { start: 120, end: 240 } });
    const ruleId = await r.readyRule(models, "RUT9_R_98.02.00");

    r.holdClock();
    await r.setClockToUtc(12, 0);
    const id = await r.start(ruleId, {
      canary: { count: 4 },
      waveSize: 1,
      successRate: 1,
      errorBudget: 0,
      concurrency: 10,
    });
    const admin = await adminOf(manual);
    const accepted = await r.f.post(admin, `/api/rollout/${id}/accept`, { window: { start: 120, end: 240 } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().items[0]).toMatchObject({ state: "accepted", window: { start: 120, end: 240 } });
    const held = await r.waitFor(id, (p) => p.held.window === 4, "every router held by its window at noon");
    expect(domainOf(held, automatic)).toMatchObject({
      state: "accepted",
      auto: true,
      window: { start: 120, end: 240 },
    });
    expect(domainOf(held, manual)).toMatchObject({ state: "accepted", auto: false });
    expect(held.held.offer).toBe(0);
    expect(await commandsTo(r, devices)).toEqual([]);
    // The setting's acceptance and the offer reach each domain's console as a notice.
    await eventually(
      async () =>
        (
          await r.f.t.db
            .selectFrom("notification_news")
            .select("domain_id")
            .where("domain_id", "in", [manual, automatic])
            .execute()
        ).length === 2,
      "a notice in each domain",
    );

    await r.setClockToUtc(2, 30);
    r.runClock();
    const done = await r.waitFor(id, (p) => p.status === "completed", "every router updated in the window");
    expect(done.stages[0]?.succeeded).toBe(4);
    expect((await commandsTo(r, devices)).length).toBe(4);
  }, 120_000);
});
