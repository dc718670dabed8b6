import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { DomainSettings, RolloutProgress } from "@cellfleet/contract";
import type { VirtualRouter, VirtualRouterOptions } from "@cellfleet/simulator";
import { sql } from "kysely";
import { expect } from "vitest";
import { buildUser, signIn } from "../../test/factories";
import { type ActionsFixture, openActionsFixture } from "../actions/actions.test-support";
import { eventually, insertDevice, type TestDevice } from "../ingest/ingest.test-support";

// Rollouts over simulated routers on the embedded broker (ADR 021): a console whose clock runs
// fast, a loopback server for the rule's file, fleets of connected routers and the rollout's API.

const IMAGE = Buffer.alloc(32 * 1024, 7);

/** A fleet: its devices and routers in the planner's order (by device id), and their models. */
export interface RolloutFleet {
  devices: TestDevice[];
  routers: VirtualRouter[];
  models: string[];
}

export interface RolloutFixture {
  f: ActionsFixture;
  /** A signed-in root (signed in again when the clock jumps). */
  readonly root: string;
  /**
   * `count` connected routers on their hello's old firmware with a good link, ordered by device id
   * as the planner orders them; `options(i)` gives the i-th (in that order) its behaviour.
   */
  fleet(
    count: number,
    options?: (index: number) => Partial<VirtualRouterOptions>,
    domainOf?: (index: number) => string,
  ): Promise<RolloutFleet>;
  /**
   * Sets a domain's answer to rollouts offered to it (ADR 031). A fleet's domains accept by
   * themselves, any time, so the driver's tests need no admin; a test of the offer turns it off.
   */
  setRolloutSetting(domainId: string, rollouts: DomainSettings["rollouts"]): Promise<void>;
  /** A software rule of these models, its file fetched (Ready), carrying `version`. */
  readyRule(models: string[], version: string): Promise<string>;
  /** POST /api/software/{id}/rollout: the started rollout's id. */
  start(ruleId: string, options: object): Promise<string>;
  progress(id: string): Promise<RolloutProgress>;
  /** Polls the progress until `isDone`; the last progress is in the error when it times out. */
  waitFor(
    id: string,
    isDone: (p: RolloutProgress) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<RolloutProgress>;
  /** Stops the console's clock from running fast (a test that sets the time itself). */
  holdClock(): void;
  /** Sets the held clock to the next `hour`:`minute` UTC after now (and signs root in again). */
  setClockToUtc(hour: number, minute: number): Promise<void>;
  /** Lets the clock run fast again. */
  runClock(): void;
  close(): Promise<void>;
}

/** How many of the rollout's routers are in `state`, over all its stages. */
export function sumOfStages(p: RolloutProgress, state: keyof RolloutProgress["stages"][number]): number {
  return p.stages.reduce((total, stage) => total + stage[state], 0);
}

/**
 * Moves a router's primary modem to this link and reports it (a `collect/modems` round): CSQ
 * (below 10 is cell edge) and whether it roams. The report's RSSI is the one that gives the CSQ.
 */
export function setLink(router: VirtualRouter, link: { csq: number; roaming: boolean }): void {
  const modem = router.state.modems.find((each) => each.primary) ?? router.state.modems[0];
  if (!modem) throw new Error(`${router.ident} has no modem`);
  modem.online = true;
  modem.activeSim = 1;
  modem.roaming = link.roaming;
  modem.radio = { ...modem.radio, rssi: link.csq * 2 - 113 };
  router.publishCollects();
}

/** Starts the console; its clock moves 5 s every 100 ms, so advances come due and deadlines pass. */
export async function openRolloutFixture(): Promise<RolloutFixture> {
  const f = await openActionsFixture();
  const files: Server = createServer((_request, response) => void response.writeHead(200).end(IMAGE));
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
  const rootUser = await buildUser(f.t, { role: 1 });
  let root = await signIn(f.t.app, rootUser);
  let ticker: NodeJS.Timeout | null = setInterval(() => f.t.clock.advance(5_000), 100);

  const setRolloutSetting = async (domainId: string, rollouts: DomainSettings["rollouts"]) => {
    await sql`update domains set settings = settings || jsonb_build_object('rollouts', ${JSON.stringify(rollouts)}::jsonb)
      where id = ${domainId}`.execute(f.t.db);
  };

  const progress = async (id: string) => {
    const response = await f.post(root, `/api/rollout/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RolloutProgress>();
  };

  return {
    f,
    get root() {
      return root;
    },
    async fleet(count, options = () => ({}), domainOf) {
      const devices: TestDevice[] = [];
      for (let i = 0; i < count; i += 1)
        devices.push(domainOf ? await insertDevice(f.t, domainOf(i)) : await f.device());
      devices.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const routers: VirtualRouter[] = [];
      // Connected in batches: a large fleet does not queue 200 connections at once on a shared machine.
      for (let start = 0; start < count; start += 25)
        routers.push(
          ...(await Promise.all(
            devices.slice(start, start + 25).map((device, i) => f.router(device, options(start + i))),
          )),
        );
      const ids = devices.map((device) => device.id);
      for (const domainId of new Set(devices.map((device) => device.domainId)))
        await setRolloutSetting(domainId, { auto_accept: true, window: null });
      await eventually(
        async () =>
          (await f.t.db.selectFrom("devices").select("firmware").where("id", "in", ids).execute()).every(
            (row) => row.firmware !== null,
          ),
        "every hello stored",
        30_000,
      );
      // Every router reports a good link on its primary SIM at home (a test moves some of them later).
      for (const router of routers) setLink(router, { csq: 25, roaming: false });
      await eventually(
        async () =>
          (
            await f.t.db
              .selectFrom("devices")
              .select("id")
              .where("id", "in", ids)
              .where("signal_csq", "=", 25)
              .execute()
          ).length === count,
        "every good link reported",
        30_000,
      );
      const models = await f.t.db
        .selectFrom("devices")
        .select("model")
        .distinct()
        .where("id", "in", ids)
        .execute();
      // Earlier fleets keep their firmware off this fleet's rule: its model list is this fleet's.
      await f.t.db.updateTable("devices").set({ model: "OTHER" }).where("id", "not in", ids).execute();
      return { devices, routers, models: models.map((row) => row.model as string) };
    },
    setRolloutSetting,
    async readyRule(models, version) {
      const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
      const created = await f.post(root, "/api/software/new", {
        name: version,
        url: `${base}/fw/${version}.bin`,
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
    },
    async start(ruleId, options) {
      const started = await f.post(root, `/api/software/${ruleId}/rollout`, options);
      expect(started.statusCode, started.body).toBe(200);
      return started.json<RolloutProgress>()._id;
    },
    progress,
    async waitFor(id, isDone, what, timeoutMs = 60_000) {
      let last: RolloutProgress | null = null;
      await eventually(
        async () => {
          last = await progress(id);
          return isDone(last);
        },
        what,
        timeoutMs,
      ).catch((error) => {
        throw new Error(`${String(error)}; last: ${JSON.stringify(last)}`);
      });
      return last as unknown as RolloutProgress;
    },
    holdClock() {
      if (ticker) clearInterval(ticker);
      ticker = null;
    },
    async setClockToUtc(hour, minute) {
      const now = f.t.clock.now();
      const at = new Date(now);
      at.setUTCHours(hour, minute, 0, 0);
      if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
      f.t.clock.advance(at.getTime() - now.getTime());
      // Hours later root's session has expired: sign in again.
      root = await signIn(f.t.app, rootUser);
    },
    runClock() {
      ticker ??= setInterval(() => f.t.clock.advance(5_000), 100);
    },
    async close() {
      if (ticker) clearInterval(ticker);
      await new Promise((resolve) => files.close(resolve));
      await f.close();
    },
  };
}
