import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type SoftwareSocketContent, SoftwareSocketMessageSchema } from "@cellfleet/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainTopic, SUPERUSERS_TOPIC } from "../../platform/bus/bus";
import { buildDevice } from "../../test/device-factories";
import { buildUser, signIn } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";

// The software screens' realtime pushes (issue 16, ADR 021): a rule's fetch status and a rollout's
// progress reach root's socket after each commit that changed them, and never a domain user's.

const OLD = "RUT9_R_00.07.06.10";
const NEW = "RUT9_R_00.07.08.2";

describe("software realtime", () => {
  let t: TestApp;
  let files: Server;
  let base = "";
  let root: string;
  let admin: { token: string; domainId: string };
  let socketUrl = "";
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ runJobs: false });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/`;
    files = createServer((_request, response) => void response.writeHead(200).end("firmware"));
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    root = await signIn(t.app, await buildUser(t, { role: 1 }));
    const adminUser = await buildUser(t, { role: 2 });
    admin = { token: await signIn(t.app, adminUser), domainId: adminUser.domainId as string };
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.ws.terminate();
    await new Promise((resolve) => files.close(resolve));
    await t.close();
  });

  async function connect(token: string): Promise<TestSocket> {
    const socket = await openTestSocket(socketUrl);
    sockets.push(socket);
    socket.sendJson({ token });
    expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
    return socket;
  }

  /** The socket's next `software` message (other types, a domain's commands, are passed over). */
  async function nextSoftware(socket: TestSocket): Promise<SoftwareSocketContent> {
    for (;;) {
      const message = (await socket.nextMessage()) as { type?: string };
      if (message.type === "software") return SoftwareSocketMessageSchema.parse(message).content;
    }
  }

  const post = (token: string, url: string, payload: object = {}) =>
    t.app.inject({ method: "POST", url, headers: { token }, payload });

  it("pushes a rule's fetch from Pending to Ready, and a rollout's start, canary, first wave and pause, to root", async () => {
    const rootSocket = await connect(root);
    const created = await post(root, "/api/software/new", {
      name: "RUT9",
      url: `${base}/fw/${NEW}.bin`,
      models: ["RUT955"],
    });
    expect(created.statusCode, created.body).toBe(200);
    const ruleId = created.json()._id as string;
    expect((await nextSoftware(rootSocket)).rules).toMatchObject([{ _id: ruleId, status: 0 }]);
    await t.jobs.runUntilIdle();
    // The fetch job: Accepted once the server answered, then Ready with its file.
    expect((await nextSoftware(rootSocket)).rules).toMatchObject([{ _id: ruleId, status: 1 }]);
    const ready = (await nextSoftware(rootSocket)).rules[0];
    expect(ready).toMatchObject({ _id: ruleId, status: 2, file: { filename: `${NEW}.bin` } });

    const routers: Array<{ id: string }> = [];
    for (let i = 0; i < 3; i += 1)
      routers.push(await buildDevice(t, admin.domainId, { model: "RUT955", firmware: OLD, signal_csq: 22 }));
    const setFirmware = (version: string) =>
      t.db
        .updateTable("devices")
        .set({ firmware: version })
        .where(
          "id",
          "in",
          routers.map((r) => r.id),
        )
        .execute();
    // The domain accepts rollouts by its setting (ADR 031), so its routers are sent from the start.
    await sql`update domains set settings = settings || '{"rollouts":{"auto_accept":true,"window":null}}'::jsonb
      where id = ${admin.domainId}`.execute(t.db);
    const started = await post(root, `/api/software/${ruleId}/rollout`, {
      canary: { count: 1 },
      waveSize: 2,
      successRate: 1,
    });
    expect(started.statusCode, started.body).toBe(200);
    const rolloutId = started.json()._id as string;
    const onStart = (await nextSoftware(rootSocket)).rollouts;
    expect(onStart).toMatchObject([{ _id: rolloutId, status: "running", stage: 0 }]);
    expect(onStart[0]?.stages.map((stage) => stage.waiting)).toEqual([1, 2]);

    // The first advance sends the canary's fw_update.
    await t.jobs.runUntilIdle();
    const canarySent = (await nextSoftware(rootSocket)).rollouts[0];
    expect(canarySent?.stages[0]).toMatchObject({ waiting: 0, sent: 1 });

    // The canary comes back on the version: it succeeds and the first wave starts.
    await setFirmware(NEW);
    t.clock.advance(5_000);
    await t.jobs.runUntilIdle();
    const waveStarted = (await nextSoftware(rootSocket)).rollouts[0];
    expect(waveStarted).toMatchObject({ _id: rolloutId, status: "running", stage: 1 });
    expect(waveStarted?.stages.map((stage) => [stage.succeeded, stage.sent])).toEqual([
      [1, 0],
      [0, 2],
    ]);

    // An advance that changes nothing pushes nothing: the next message is the pause's.
    await setFirmware(OLD);
    t.clock.advance(5_000);
    await t.jobs.runUntilIdle();
    expect((await post(root, `/api/rollout/${rolloutId}/pause`)).statusCode).toBe(200);
    expect((await nextSoftware(rootSocket)).rollouts).toMatchObject([{ _id: rolloutId, status: "paused" }]);

    // Deleting the rule says so.
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/software/${ruleId}`, headers: { token: root } }))
        .statusCode,
    ).toBe(200);
    expect((await nextSoftware(rootSocket)).deleted).toEqual([ruleId]);
  });

  it("never reaches a domain user's socket, even on the domain's own topic", async () => {
    const adminSocket = await connect(admin.token);
    const software = { type: "software", content: { rules: [], deleted: ["x"], rollouts: [] } };
    await t.bus.publish(SUPERUSERS_TOPIC, software);
    await t.bus.publish(domainTopic(admin.domainId), software);
    const sentinel = { type: "collects", content: [] };
    await t.bus.publish(domainTopic(admin.domainId), sentinel);
    // The sentinel is the admin's first message: neither software message came before it.
    expect(await adminSocket.nextMessage()).toEqual(sentinel);
    // Root, on the superusers' topic, gets it.
    const rootSocket = await connect(root);
    await t.bus.publish(SUPERUSERS_TOPIC, software);
    expect(await rootSocket.nextMessage()).toEqual(software);
  });
});
