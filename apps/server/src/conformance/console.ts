import type { AddressInfo } from "node:net";
import type {
  Command,
  CommandStatusMessage,
  DeviceDetail,
  Execution,
  ZeroTouchSecretAnswer,
} from "@cellfleet/contract";
import { expect } from "vitest";
import type { DeviceIngest } from "../modules/ingest/ingest.runtime";
import { startDeviceIngest } from "../modules/ingest/ingest.runtime";
import { eventually, insertDevice, type TestDevice } from "../modules/ingest/ingest.test-support";
import { buildDomain, buildUser, signIn } from "../test/factories";
import { createTestApp, type TestApp } from "../test/test-app";
import type { ConformanceConsole } from "./driver";

// The console a conformance run talks to: the whole app on a free port (signed file URLs point at
// it), its embedded broker with commands and zero-touch wired as in production, one domain and its
// administrator, and a record of every command status the routers reported, in arrival order.

/** A running console and what the scenarios ask of it. */
export interface ConformanceFixture {
  t: TestApp;
  ingest: DeviceIngest;
  /** Where a device under test connects. */
  address: ConformanceConsole;
  domainId: string;
  /** A device of the domain with a fresh key. */
  device(): Promise<TestDevice>;
  /** A zero-touch configuration of the domain that matches every router: its key id and secret. */
  zeroTouchConfig(): Promise<{ keyId: string; secret: string }>;
  /** The device page's data (`POST /api/device/{id}`). */
  detail(deviceId: string): Promise<DeviceDetail>;
  /** Creates a command for one device and answers its id. */
  command(deviceId: string, body: Record<string, unknown>): Promise<string>;
  /** Waits until the command has left the states that still change, and answers its one execution. */
  finished(commandId: string, timeoutMs: number): Promise<Execution>;
  /** The states (with codes) a router reported for an execution, in the order they arrived. */
  statuses(executionId: string): Array<Pick<CommandStatusMessage, "state" | "code">>;
  close(): Promise<void>;
}

const isFinished = (command: Command) => !["unapproved", "delayed", "in_progress"].includes(command.status);

/** Starts a console for the conformance suite (embedded broker). */
export async function openConformanceConsole(): Promise<ConformanceFixture> {
  const t = await createTestApp({ jobTimings: { pollMs: 50 } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  t.config.publicUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const reported = new Map<string, Array<Pick<CommandStatusMessage, "state" | "code">>>();
  const quiet = { info() {}, warn() {}, error() {} };
  const ingest = await startDeviceIngest({
    db: t.db,
    bus: t.bus,
    now: t.clock.now,
    log: quiet,
    mqttUrl: undefined,
    mqttPort: 0,
    host: "127.0.0.1",
    ingest: { flushIntervalMs: 10 },
    jobs: t.app.jobs,
    zeroTouch: t.app.zeroTouch,
    commandStatuses: (trx, reports) => {
      for (const { message } of reports) {
        const list = reported.get(message.id) ?? [];
        list.push({ state: message.state, code: message.code });
        reported.set(message.id, list);
      }
      return t.app.commandStatuses(trx, reports);
    },
  });
  t.app.deviceLink.attach(ingest.gateway);
  const domainId = (await buildDomain(t)).id;
  const admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  const post = async (url: string, payload: object = {}) => {
    const response = await t.app.inject({ method: "POST", url, headers: { token: admin }, payload });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response;
  };
  return {
    t,
    ingest,
    address: { mqttUrl: ingest.gateway.url, publicUrl: t.config.publicUrl },
    domainId,
    device: () => insertDevice(t, domainId),
    async zeroTouchConfig() {
      const answer = (
        await post("/api/zerotouch/config/new", { name: "Conformance" })
      ).json<ZeroTouchSecretAnswer>();
      return { keyId: answer.config.key_id, secret: answer.secret };
    },
    async detail(deviceId) {
      return (await post(`/api/device/${deviceId}`)).json<DeviceDetail>();
    },
    async command(deviceId, body) {
      return (await post("/api/command/new", { ...body, targets: { devices: [deviceId] } })).json<Command>()
        ._id;
    },
    async finished(commandId, timeoutMs) {
      await eventually(
        async () => isFinished((await post(`/api/command/${commandId}`)).json<Command>()),
        `command ${commandId} finished`,
        timeoutMs,
      );
      const lines = (await post("/api/reports/", { command_id: commandId })).body.trim().split("\n");
      expect(lines).toHaveLength(1);
      return JSON.parse(lines[0] ?? "") as Execution;
    },
    statuses: (executionId) => reported.get(executionId) ?? [],
    async close() {
      t.app.deviceLink.detach();
      await ingest.close();
      await t.close();
    },
  };
}
