import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RolloutProgress } from "@cellfleet/contract";
import type { VirtualRouter } from "@cellfleet/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../test/factories";
import { type ActionsFixture, openActionsFixture } from "../actions/actions.test-support";
import { eventually, type TestDevice } from "../ingest/ingest.test-support";
import { setLink } from "./rollout.test-support";

// The rollout driver over simulated routers on the embedded broker (ADR 021): fw_update commands
// sent by the `rollout.advance` job, the routers download the rule's file by its signed URL, reboot
// and come back on the version. 10-router fleets (not 200: the machine is shared and slow).

const NEW = "RUT9_R_99.01.02";
const IMAGE = Buffer.alloc(32 * 1024, 7);

describe("rollout driver", () => {
  let f: ActionsFixture;
  let files: Server;
  let root: string;
  let ruleId: string;
  let ticker: NodeJS.Timeout;

  beforeAll(async () => {
    f = await openActionsFixture();
    files = createServer((_request, response) => void response.writeHead(200).end(IMAGE));
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    root = await signIn(f.t.app, await buildUser(f.t, { role: 1 }));
    // The console's clock moves 5 s every 100 ms: advances come due, deadlines pass.
    ticker = setInterval(() => f.t.clock.advance(5_000), 100);
  }, 60_000);
  afterAll(async () => {
    clearInterval(ticker);
    await new Promise((resolve) => files.close(resolve));
    await f.close();
  });

  /** Connected routers on their hello's old firmware, with a good link (the planner's waits aside). */
  async function fleet(count: number, options: Parameters<ActionsFixture["router"]>[1][] = []) {
    const devices: TestDevice[] = [];
    const routers: VirtualRouter[] = [];
    for (let i = 0; i < count; i += 1) {
      const device = await f.device();
      devices.push(device);
      routers.push(await f.router(device, options[i] ?? {}));
    }
    const ids = devices.map((device) => device.id);
    await eventually(
      async () =>
        (await f.t.db.selectFrom("devices").select("firmware").where("id", "in", ids).execute()).every(
          (row) => row.firmware !== null,
        ),
      "every hello stored",
    );
    await f.t.db.updateTable("devices").set({ signal_csq: 25 }).where("id", "in", ids).execute();
    await f.t.db.deleteFrom("device_collects").where("device_id", "in", ids).execute();
    const models = await f.t.db
      .selectFrom("devices")
      .select("model")
      .distinct()
      .where("id", "in", ids)
      .execute();
    // Other tests' routers keep their old firmware off this rule: its model list is this fleet's.
    await f.t.db.updateTable("devices").set({ model: "OTHER" }).where("id", "not in", ids).execute();
    return { devices, routers, models: models.map((row) => row.model as string) };
  }

  async function readyRule(models: string[]): Promise<string> {
    const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const created = await f.post(root, "/api/software/new", {
      name: "RUT9",
      url: `${base}/fw/${NEW}.bin`,
      models,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json()._id as string;
    await eventually(
      async () => (await f.post(root, `/api/software/${id}`)).json().status === 2,
      "the rule's file fetched",
      20_000,
    );
    return id;
  }

  const progress = async (id: string) => {
    const response = await f.post(root, `/api/rollout/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RolloutProgress>();
  };
  const waitFor = async (id: string, isDone: (p: RolloutProgress) => boolean, what: string) => {
    let last: RolloutProgress | null = null;
    await eventually(
      async () => {
        last = await progress(id);
        return isDone(last);
      },
      what,
      60_000,
    ).catch((error) => {
      throw new Error(`${String(error)}; last: ${JSON.stringify(last)}`);
    });
    return last as unknown as RolloutProgress;
  };

  it("completes the canary, starts the next wave, and ends with every router on the version", async () => {
    const { devices, models } = await fleet(10);
    ruleId = await readyRule(models);
    const started = await f.post(root, `/api/software/${ruleId}/rollout`, {
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
    const wave = await waitFor(
      id,
      (p) => p.stages[0]?.succeeded === 2 && (p.stages[1]?.sent ?? 0) + (p.stages[1]?.succeeded ?? 0) > 0,
      "the canary done and the first wave started",
    );
    expect(wave.stages[2]?.waiting).toBe(4);
    const done = await waitFor(id, (p) => p.status === "completed", "the rollout completed");
    expect(done.stages.map((stage) => stage.succeeded)).toEqual([2, 4, 4]);
    const latest = await f.post(root, `/api/software/${ruleId}/rollouts`);
    expect(latest.json().rollout).toMatchObject({ _id: id, status: "completed" });
    const firmware = await f.t.db
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
    const { devices, routers, models } = await fleet(10, [
      { commandFailRate: 1 },
      { commandFailRate: 1 },
      { commandFailRate: 1 },
      { rebootDowntimeMs: 3_600_000 },
    ]);
    await f.t.db
      .updateTable("software_rules")
      .set({ models: JSON.stringify(models) })
      .where("id", "=", ruleId)
      .execute();
    const started = await f.post(root, `/api/software/${ruleId}/rollout`, {
      canary: { count: 10 },
      waveSize: 10,
      concurrency: 10,
      successRate: 0,
      errorBudget: 0.2,
      deadlineMinutes: 5,
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json<RolloutProgress>()._id;
    const paused = await waitFor(id, (p) => p.status === "paused", "paused at the budget");
    expect(paused.pause_reason).toMatch(/failed/);
    expect(paused.failures.length).toBeGreaterThan(2);
    // The superusers hear of it in the app (the notifications module's news).
    await eventually(
      async () =>
        (
          await f.t.db
            .selectFrom("notification_news")
            .select("text")
            .where("domain_id", "is", null)
            .where("title", "=", "Firmware rollout paused")
            .execute()
        ).some((row) => row.text.includes(id)),
      "the pause's notification",
    );

    // Resume alone: the failures are still over the budget, so it pauses again.
    expect((await f.post(root, `/api/rollout/${id}/resume`)).statusCode).toBe(200);
    await waitFor(id, (p) => p.status === "paused" && p.stages[0]?.sent === 0, "paused again, all counted");
    const counted = await progress(id);
    expect(counted.stages[0]).toMatchObject({ succeeded: 6, failed: 4 });
    const silent = counted.failures.find((failure) => failure.device_id === devices[3]?.id);
    expect(silent?.reason).toMatch(/deadline/);

    // The failing routers are fixed (replaced by good ones); retry the failed, and it completes but for the silent one.
    for (const index of [0, 1, 2]) {
      await routers[index]?.stop();
      // A good link, or the driver's re-check before the send would hold it (ADR 021).
      setLink(await f.router(devices[index] as TestDevice), { csq: 25, roaming: false });
    }
    expect((await f.post(root, `/api/rollout/${id}/retry`)).statusCode).toBe(200);
    const done = await waitFor(
      id,
      (p) => p.status !== "running" && p.stages[0]?.sent === 0,
      "the retried counted",
    );
    expect(done.stages[0]?.succeeded).toBe(9);
    expect(done.failures.map((failure) => failure.device_id)).toEqual([devices[3]?.id]);
    expect(done.status).toBe("completed");
  }, 180_000);

  it("answers 400, 403 and 404 on bad starts and controls", async () => {
    const admin = await signIn(f.t.app, await buildUser(f.t, { role: 2, domainId: f.domainId }));
    expect(
      (await f.post(root, `/api/software/${ruleId}/rollout`, { canary: { count: 0 }, waveSize: 1 })).json()
        .code,
    ).toBe("BAD_REQUEST");
    expect(
      (await f.post(admin, `/api/software/${ruleId}/rollout`, { canary: { count: 1 }, waveSize: 1 }))
        .statusCode,
    ).toBe(403);
    expect((await f.post(root, "/api/rollout/00000000-0000-4000-8000-000000000000/pause")).statusCode).toBe(
      404,
    );
  });
});
