import type { AddressInfo } from "node:net";
import type { Command, Execution, Role } from "@cellfleet/contract";
import { VirtualRouter, type VirtualRouterOptions } from "@cellfleet/simulator";
import type { Response } from "light-my-request";
import { expect } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp, type TestAppOptions } from "../../test/test-app";
import type { DeviceIngest } from "../ingest/ingest.runtime";
import { eventually, insertDevice, startTestIngest, type TestDevice } from "../ingest/ingest.test-support";

// A console with its embedded broker, HTTP for file transfers, and simulated routers that connect.

/** The parts a commands test works with. */
export interface ActionsFixture {
  t: TestApp;
  ingest: DeviceIngest;
  domainId: string;
  /** A signed-in person of the domain: admin, assistant, junior or operator. */
  person(kind: "admin" | "assistant" | "junior" | "operator"): Promise<{ id: string; token: string }>;
  device(tags?: string[]): Promise<TestDevice>;
  router(device: TestDevice, options?: Partial<VirtualRouterOptions>): Promise<VirtualRouter>;
  post(token: string, url: string, payload?: unknown): Promise<Response>;
  /** A command's execution reports (`POST /api/reports/`), one object a line. */
  reports(token: string, commandId: string): Promise<Execution[]>;
  waitForCommand(
    token: string,
    id: string,
    isDone: (command: Command) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<Command>;
  close(): Promise<void>;
}

/** Whether a command has left the states that still change (unapproved, delayed, in progress). */
export const isCommandFinished = (command: { status: string }) =>
  !["unapproved", "delayed", "in_progress"].includes(command.status);

const ROLE_OF = { admin: 2, assistant: 3, junior: 3, operator: 4 } as const;

/** Starts the app on a free port (routers fetch files over HTTP), ingest with the actions hook, and the link. */
export async function openActionsFixture(options: TestAppOptions = {}): Promise<ActionsFixture> {
  const t = await createTestApp({ jobTimings: { pollMs: 50 }, ...options });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  t.config.publicUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const ingest = await startTestIngest(t, { flushIntervalMs: 10, withCommands: true });

  t.app.deviceLink.attach(ingest.gateway);
  const domainId = (await buildDomain(t)).id;
  const routers: VirtualRouter[] = [];
  return {
    t,
    ingest,
    domainId,
    async person(kind) {
      const user = await buildUser(t, { role: ROLE_OF[kind] as Role, domainId, isJunior: kind === "junior" });
      return { id: user.id, token: await signIn(t.app, user) };
    },
    async device(tags = []) {
      const device = await insertDevice(t, domainId);
      if (tags.length > 0)
        await t.db
          .updateTable("devices")
          .set({ tags: JSON.stringify(tags) })
          .where("id", "=", device.id)
          .execute();
      return device;
    },
    async router(device, options = {}) {
      const router = new VirtualRouter({
        ident: device.ident,
        key: device.key as string,
        url: ingest.gateway.url,
        autoTick: false,
        rebootDowntimeMs: 200,
        commandDelayMs: 20,
        reconnectPeriodMs: 100,
        ...options,
      });
      routers.push(router);
      await router.start();
      await eventually(() => router.stats.connected, `${device.ident} connected`);
      return router;
    },
    async post(token, url, payload = {}) {
      return t.app.inject({ method: "POST", url, headers: { token }, payload: payload as object });
    },
    async reports(token, commandId) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/reports/",
        headers: { token },
        payload: { command_id: commandId },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.body
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Execution);
    },
    async waitForCommand(token, id, isDone, what, timeoutMs = 10_000) {
      let last: Command | null = null;
      await eventually(
        async () => {
          const response = await t.app.inject({
            method: "POST",
            url: `/api/command/${id}`,
            headers: { token },
            payload: {},
          });
          expect(response.statusCode, response.body).toBe(200);
          const command = response.json<Command>();
          last = command;
          return isDone(command);
        },
        what,
        timeoutMs,
      );
      return last as unknown as Command;
    },
    async close() {
      await Promise.all(routers.map((router) => router.stop()));
      t.app.deviceLink.detach();
      await ingest.close();
      await t.close();
    },
  };
}
