import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_DOMAIN_SETTINGS } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJsonb } from "../../platform/db/schema";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// The dry run of a staged rollout (POST /api/software/{id}/rollout/dry-run) over 200 routers in
// two domains: the canary and waves it would take, and the routers it skips with their reasons.

const OLD = "RUT9_R_00.07.06.10";
const NEW = "RUT9_R_00.07.08.2";

describe("rollout dry run", () => {
  let t: TestApp;
  let files: Server;
  let root: string;
  let ruleId: string;
  let pendingRuleId: string;
  let domains: string[];
  const skippedIds: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ runJobs: false });
    files = createServer((request, response) =>
      request.url?.startsWith("/missing/")
        ? void response.writeHead(404).end()
        : void response.writeHead(200).end("fw"),
    );
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    root = await signIn(t.app, await buildUser(t, { role: 1 }));
    const create = async (url: string) =>
      (
        await t.app.inject({
          method: "POST",
          url: "/api/software/new",
          headers: { token: root },
          payload: { name: "RUT9", url, models: ["RUT955", "RUT950"] },
        })
      ).json()._id as string;
    ruleId = await create(`${base}/fw/${NEW}.bin`);
    pendingRuleId = await create(`${base}/missing/${NEW}.bin`);
    await t.jobs.runUntilIdle();

    domains = [
      (await buildDomain(t, { name: "zeta-customer" })).id,
      (await buildDomain(t, { name: "alpha-demo" })).id,
    ];
    // The demo domain accepts rollouts by itself (ADR 031); the customer is asked.
    await t.db
      .updateTable("domains")
      .set({
        settings: toJsonb({
          ...DEFAULT_DOMAIN_SETTINGS,
          time_zone: undefined,
          rollouts: { auto_accept: true, window: null },
        }),
      })
      .where("id", "=", domains[1] as string)
      .execute();
    for (let i = 0; i < 200; i += 1)
      await buildDevice(t, domains[i % 2] as string, {
        model: i % 3 ? "RUT955" : "RUT950",
        firmware: OLD,
        signal_csq: 22,
      });
    const domainId = domains[0] as string;
    skippedIds.otherModel = (await buildDevice(t, domainId, { model: "RUTX11", firmware: OLD })).id;
    skippedIds.noVersion = (await buildDevice(t, domainId, { model: "RUT955", firmware: null })).id;
    skippedIds.alreadyOnVersion = (await buildDevice(t, domainId, { model: "RUT955", firmware: NEW })).id;
    skippedIds.cellEdge = (
      await buildDevice(t, domainId, { model: "RUT955", firmware: OLD, signal_csq: 4 })
    ).id;
    const backup = await buildDevice(t, domainId, { model: "RUT955", firmware: OLD, signal_csq: 25 });
    skippedIds.backupSim = backup.id;
    await t.db
      .insertInto("device_collects")
      .values({
        device_id: backup.id,
        domain_id: domainId,
        type: "modems",
        data: toJsonb({ modems: [{ id: "mob1s2a1", state: 1, primary: true, sim: 2 }] }),
        seq: 1,
        create_time: t.clock.now(),
      })
      .execute();
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => files.close(resolve));
    await t.close();
  });

  const dryRun = (id: string, payload: unknown, token = root) =>
    t.app.inject({
      method: "POST",
      url: `/api/software/${id}/rollout/dry-run`,
      headers: { token },
      payload: payload as object,
    });

  it("lists a 5% canary and waves of 50 over the 200 routers, the two on a weak link waiting and the skipped with reasons", async () => {
    const answer = await dryRun(ruleId, { canary: { percent: 5 }, waveSize: 50 });
    expect(answer.statusCode, answer.body).toBe(200);
    const plan = answer.json();
    expect(plan.version).toBe(NEW);
    expect(plan.stages.map((stage: unknown[]) => stage.length)).toEqual([10, 50, 50, 50, 40]);
    const planned = plan.stages.flat().map((router: { _id: string }) => router._id);
    expect(new Set(planned).size).toBe(200);
    const reasons = (list: Array<{ _id: string; reason: string }>) =>
      Object.fromEntries(
        list
          .filter((skip) => Object.values(skippedIds).includes(skip._id))
          .map((skip) => [skip.reason, skip._id]),
      );
    const { cellEdge, backupSim, otherModel: _, ...skipped } = skippedIds;
    expect(reasons(plan.skipped)).toEqual(skipped);
    // On a weak link now: they will wait for a better link (the plan's last stage), not skipped.
    expect(reasons(plan.waiting)).toEqual({ cellEdge, backupSim });
    expect(plan.waiting).toHaveLength(2);
    // A router of another model is not even a candidate: the rule does not name it.
    expect(planned).not.toContain(skippedIds.otherModel);
  });

  it("names every router's domain and lists the domains it would be offered to, and plans only the domains chosen", async () => {
    const plan = (await dryRun(ruleId, { canary: { percent: 5 }, waveSize: 50 })).json();
    const [customer, demo] = domains as [string, string];
    // By name; the customer's count holds its two routers on a weak link too.
    expect(plan.domains).toEqual([
      { _id: demo, name: "alpha-demo", routers: 100, auto_accept: true },
      { _id: customer, name: "zeta-customer", routers: 102, auto_accept: false },
    ]);
    const names = { [customer]: "zeta-customer", [demo]: "alpha-demo" };
    for (const router of [...plan.stages.flat(), ...plan.waiting, ...plan.skipped])
      expect(router.domain_name).toBe(names[router.domain_id]);
    // The canary of 10 mixes both domains' routers: each says whose it is.
    expect(new Set(plan.stages[0].map((router: { domain_id: string }) => router.domain_id)).size).toBe(2);

    const onlyDemo = (await dryRun(ruleId, { canary: { percent: 5 }, waveSize: 50, domains: [demo] })).json();
    expect(onlyDemo.domains.map((domain: { _id: string }) => domain._id)).toEqual([demo]);
    expect(onlyDemo.stages.flat().every((router: { domain_id: string }) => router.domain_id === demo)).toBe(
      true,
    );
    expect(onlyDemo.stages.flat()).toHaveLength(100);
  });

  it("a canary by count; a rule not ready, an admin, bad options and an unknown rule are refused", async () => {
    const byCount = (await dryRun(ruleId, { canary: { count: 3 }, waveSize: 100 })).json();
    expect(byCount.stages.map((stage: unknown[]) => stage.length)).toEqual([3, 100, 97]);
    const notReady = await dryRun(pendingRuleId, { canary: { count: 3 }, waveSize: 100 });
    expect([notReady.statusCode, notReady.json().code]).toEqual([400, "OPERATION_IS_NOT_SUPPORTED"]);
    const admin = await signIn(t.app, await buildUser(t, { role: 2 }));
    expect((await dryRun(ruleId, { canary: { count: 3 }, waveSize: 100 }, admin)).statusCode).toBe(403);
    expect((await dryRun(ruleId, { canary: { count: 0 }, waveSize: 100 })).statusCode).toBe(400);
    expect((await dryRun(ruleId, { canary: { percent: 5 } })).statusCode).toBe(400);
    const missing = await dryRun("00000000-0000-4000-8000-000000000000", {
      canary: { count: 1 },
      waveSize: 1,
    });
    expect(missing.json().code).toBe("RULE_NOT_FOUND");
  });
});
