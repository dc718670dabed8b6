import type { RolloutProgress } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../test/factories";
import { eventually, type TestDevice } from "../ingest/ingest.test-support";
import { openRolloutFixture, type RolloutFixture, setLink } from "./rollout.test-support";

// The rollout driver over simulated routers on the embedded broker (ADR 021): fw_update commands
// sent by the `rollout.advance` job, the routers download the rule's file by its signed URL, reboot
// and come back on the version. 10-router fleets (not 200: the machine is shared and slow).

const NEW = "RUT9_R_99.01.02";

describe("rollout driver", () => {
  let r: RolloutFixture;
  let ruleId: string;

  beforeAll(async () => {
    r = await openRolloutFixture();
  }, 60_000);
  afterAll(async () => r?.close());

  it("completes the canary, starts the next wave, and ends with every router on the version", async () => {
    const { devices, models } = await r.fleet(10);
    ruleId = await r.readyRule(models, NEW);
    // Read from the start's own answer: the first advance may have sent the canary by the next read.
    const started = await r.f.post(r.root, `/api/software/${ruleId}/rollout`, {
      canary: { count: 2 },
      waveSize: 4,
      concurrency: 3,
      successRate: 1,
      errorBudget: 0,
      deadlineMinutes: 20,
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json<RolloutProgress>()._id;
    expect(started.json<RolloutProgress>().stages.map((stage) => stage.waiting + stage.sent)).toEqual([
      2, 4, 4,
    ]);
    // Every router on a good link: no stage waits for a better link.
    expect(started.json<RolloutProgress>().link_stage).toBeNull();
    const wave = await r.waitFor(
      id,
      (p) => p.stages[0]?.succeeded === 2 && (p.stages[1]?.sent ?? 0) + (p.stages[1]?.succeeded ?? 0) > 0,
      "the canary done and the first wave started",
    );
    expect(wave.stages[2]?.waiting).toBe(4);
    const done = await r.waitFor(id, (p) => p.status === "completed", "the rollout completed");
    expect(done.stages.map((stage) => stage.succeeded)).toEqual([2, 4, 4]);
    const latest = await r.f.post(r.root, `/api/software/${ruleId}/rollouts`);
    expect(latest.json().rollout).toMatchObject({ _id: id, status: "completed" });
    const firmware = await r.f.t.db
      .selectFrom("devices")
      .select("firmware")
      .where(
        "id",
        "in",
        devices.map((device) => device.id),
      )
      .execute();
    expect(firmware.every((row) => row.firmware === NEW)).toBe(true);
  }, 120_000);

  it("pauses at the error budget, stays paused on resume until the failed are retried, and counts a router that never returns", async () => {
    // Routers 0-2 fail the update; router 3 reboots into silence.
    const { devices, routers, models } = await r.fleet(10, (i) =>
      i < 3 ? { commandFailRate: 1 } : i === 3 ? { rebootDowntimeMs: 3_600_000 } : {},
    );
    await r.f.t.db
      .updateTable("software_rules")
      .set({ models: JSON.stringify(models) })
      .where("id", "=", ruleId)
      .execute();
    const id = await r.start(ruleId, {
      canary: { count: 10 },
      waveSize: 10,
      concurrency: 10,
      successRate: 0,
      errorBudget: 0.2,
      deadlineMinutes: 5,
    });
    const paused = await r.waitFor(id, (p) => p.status === "paused", "paused at the budget");
    expect(paused.pause_reason).toMatch(/failed/);
    expect(paused.failures.length).toBeGreaterThan(2);
    // The superusers hear of it in the app (the notifications module's news).
    await eventually(
      async () =>
        (
          await r.f.t.db
            .selectFrom("notification_news")
            .select("text")
            .where("domain_id", "is", null)
            .where("title", "=", "Firmware rollout paused")
            .execute()
        ).some((row) => row.text.includes(id)),
      "the pause's notification",
    );

    // Resume alone: the failures are still over the budget, so it pauses again.
    expect((await r.f.post(r.root, `/api/rollout/${id}/resume`)).statusCode).toBe(200);
    await r.waitFor(id, (p) => p.status === "paused" && p.stages[0]?.sent === 0, "paused again, all counted");
    const counted = await r.progress(id);
    expect(counted.stages[0]).toMatchObject({ succeeded: 6, failed: 4 });
    const silent = counted.failures.find((failure) => failure.device_id === devices[3]?.id);
    expect(silent?.reason).toMatch(/deadline/);

    // The failing routers are fixed (replaced by good ones); retry the failed, and it completes but for the silent one.
    for (const index of [0, 1, 2]) {
      await routers[index]?.stop();
      // A good link, or the driver's re-check before the send would hold it (ADR 021).
      setLink(await r.f.router(devices[index] as TestDevice), { csq: 25, roaming: false });
    }
    expect((await r.f.post(r.root, `/api/rollout/${id}/retry`)).statusCode).toBe(200);
    const done = await r.waitFor(
      id,
      (p) => p.status !== "running" && p.stages[0]?.sent === 0,
      "the retried counted",
    );
    expect(done.stages[0]?.succeeded).toBe(9);
    expect(done.failures.map((failure) => failure.device_id)).toEqual([devices[3]?.id]);
    expect(done.status).toBe("completed");
  }, 180_000);

  it("answers 400, 403 and 404 on bad starts and controls", async () => {
    const { f } = r;
    const admin = await signIn(f.t.app, await buildUser(f.t, { role: 2, domainId: f.domainId }));
    expect(
      (await f.post(r.root, `/api/software/${ruleId}/rollout`, { canary: { count: 0 }, waveSize: 1 })).json()
        .code,
    ).toBe("BAD_REQUEST");
    expect(
      (await f.post(admin, `/api/software/${ruleId}/rollout`, { canary: { count: 1 }, waveSize: 1 }))
        .statusCode,
    ).toBe(403);
    expect((await f.post(r.root, "/api/rollout/00000000-0000-4000-8000-000000000000/pause")).statusCode).toBe(
      404,
    );
  });
});
