import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import type {
  Command,
  CommandStatusMessage,
  DeviceDetail,
  Execution,
  ZeroTouchSecretAnswer,
} from "@cellfleet/contract";
import { expect } from "vitest";
import { syncBrokerAccounts } from "../modules/broker-accounts/broker-accounts.service";
import { prepareExternalBroker } from "../modules/broker-accounts/broker-accounts.start";
import {
  type OwnMosquitto,
  startOwnMosquitto,
} from "../modules/broker-accounts/mosquitto-dynsec.test-support";
import type { DeviceIngest } from "../modules/ingest/ingest.runtime";
import { startDeviceIngest } from "../modules/ingest/ingest.runtime";
import {
  clearSession,
  eventually,
  insertDevice,
  type TestDevice,
} from "../modules/ingest/ingest.test-support";
import { connectDynsec } from "../platform/mqtt/dynsec";
import { buildDomain, buildUser, signIn } from "../test/factories";
import { createTestApp, type TestApp } from "../test/test-app";
import type { ConformanceConsole } from "./driver";

// The console a conformance run talks to: the whole app on a free port (signed file URLs point at
// it), its embedded broker (or a Mosquitto of its own with the dynamic-security plugin, accounts
// made for each device) with commands and zero-touch wired as in production, one domain and its
// administrator, and a record of every command status the routers reported, in arrival order.

/** Which broker the routers join: the console's own, or Mosquitto in front of it (MQTT_URL, MQTT_DYNSEC). */
export type ConformanceBroker = "embedded" | "mosquitto";

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

/** Starts a console for the conformance suite. */
export async function openConformanceConsole(
  brokerKind: ConformanceBroker = "embedded",
): Promise<ConformanceFixture> {
  const mosquitto: OwnMosquitto | null = brokerKind === "mosquitto" ? await startOwnMosquitto() : null;
  const mqttUrl = mosquitto?.serverUrl;
  const clientId = `cellfleet-conformance-${randomBytes(4).toString("hex")}`;
  const t = await createTestApp({
    jobTimings: { pollMs: 50 },
    ...(mqttUrl ? { config: { mqttUrl, mqttDynsec: true } } : {}),
  });
  if (mqttUrl) await prepareExternalBroker(t.config, { log: { info() {} } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  t.config.publicUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const reported = new Map<string, Array<Pick<CommandStatusMessage, "state" | "code">>>();
  const quiet = { info() {}, warn() {}, error() {} };
  const ingest = await startDeviceIngest({
    db: t.db,
    bus: t.bus,
    now: t.clock.now,
    log: quiet,
    mqttUrl,
    clientId,
    mqttPort: 0,
    host: "127.0.0.1",
    ingest: { flushIntervalMs: 10 },
    jobs: t.app.jobs,
    zeroTouch: t.app.hooks.get("ingest.zeroTouch"),
    commandStatuses: (trx, reports) => {
      for (const { message } of reports) {
        const list = reported.get(message.id) ?? [];
        list.push({ state: message.state, code: message.code });
        reported.set(message.id, list);
      }
      return t.app.hooks.get("ingest.commandStatuses")(trx, reports);
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
    address: { mqttUrl: mosquitto?.url ?? ingest.gateway.url, publicUrl: t.config.publicUrl },
    domainId,
    async device() {
      const device = await insertDevice(t, domainId);
      if (mqttUrl) {
        // What the broker-accounts job does for a device created in the console.
        const dynsec = await connectDynsec(mqttUrl, { clientId: `${clientId}-dynsec` });
        await syncBrokerAccounts(t.db, dynsec, [device.ident]);
        await dynsec.close();
      }
      return device;
    },
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
      if (mqttUrl) await clearSession(mqttUrl, clientId);
      await mosquitto?.close();
    },
  };
}
