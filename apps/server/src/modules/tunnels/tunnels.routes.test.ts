import {
  TUNNEL_OPEN_WITHIN_MINUTES,
  type TunnelOpenMessage,
  TunnelOpenMessageSchema,
  type TunnelSession,
  tunnelTopic,
} from "@cellfleet/contract";
import { Client } from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import type { ActionsFixture } from "../actions/actions.test-support";
import { eventually } from "../ingest/ingest.test-support";
import { ROUTER_DIAL_TIMEOUT_MS } from "./tunnels.runtime";
import { openTerminal, openTunnelsFixture, requestTunnel } from "./tunnels.test-support";

// Remote access end to end (issue 29, ADR 038): requests, four-eyes approval, the terminal through
// a simulated router's real SSH tunnel to its restricted shell, limits, and the audit row.

let f: ActionsFixture;
beforeAll(async () => {
  f = await openTunnelsFixture();
}, 60_000);
afterAll(async () => {
  await f.close();
}, 60_000);

const session = async (token: string, id: string) => {
  const response = await f.post(token, "/api/tunnels/list");
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: TunnelSession[] }>().items.find((item) => item._id === id);
};

/** Dials the console's SSH endpoint as a router would with `message`: whether it signed in. */
function dial(message: TunnelOpenMessage): Promise<"signed in" | "refused"> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.on("ready", () => {
      client.end();
      resolve("signed in");
    });
    client.on("error", (error: Error & { level?: string }) =>
      error.level === "client-authentication" ? resolve("refused") : reject(error),
    );
    client.connect({
      host: message.host,
      port: message.port,
      username: message.user,
      password: message.password,
    });
  });
}

describe("remote-access sessions", { timeout: 30_000 }, () => {
  it("refuses anonymous callers and operators, and another domain's router", async () => {
    const device = await f.device();
    expect((await f.post("", "/api/tunnels", { device_id: device.id })).statusCode).toBe(401);
    const operator = await f.person("operator");
    const refused = await f.post(operator.token, "/api/tunnels", { device_id: device.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("PERMISSION_DENIED");
    const admin = await f.person("admin");
    const unknown = await f.post(admin.token, "/api/tunnels", { device_id: "no-such-router" });
    expect(unknown.json().code).toBe("DEVICE_NOT_FOUND");
    const bad = await f.post(admin.token, "/api/tunnels", { device_id: device.id, minutes: 0 });
    expect(bad.statusCode).toBe(400);
  });

  it("an admin opens a terminal on the router's shell, types uname -a, and the session is audited", async () => {
    const device = await f.device();
    await f.router(device);
    const admin = await f.person("admin");
    const created = await requestTunnel(f, admin.token, device.id);
    expect(created.state).toBe("approved");
    const terminal = await openTerminal(f, admin.token, created._id);
    await terminal.waitForOutput(`root@${device.ident}:~# `);
    terminal.type("uname -a\r");
    const output = await terminal.waitForOutput("GNU/Linux");
    expect(output).toContain(`Linux ${device.ident} `);
    expect((await session(admin.token, created._id))?.state).toBe("open");
    terminal.type("exit\r");
    expect((await terminal.ended).reason).toBe("closed");
    await eventually(async () => (await session(admin.token, created._id))?.state === "ended", "ended");
    const row = await session(admin.token, created._id);
    expect(row?.end_reason).toBe("closed");
    expect(row?.bytes_up).toBe("uname -a\r".length + "exit\r".length);
    expect(row?.bytes_down).toBeGreaterThan(100);
    expect(row?.open_time).not.toBeNull();
    // The recording: asciicast v2, with the answer in it.
    const cast = await f.t.storage.get(`tunnel-${created._id}`);
    const chunks: Buffer[] = [];
    for await (const chunk of cast.stream) chunks.push(Buffer.from(chunk));
    const text = Buffer.concat(chunks).toString("utf8");
    expect(JSON.parse(text.split("\n")[0] as string)).toMatchObject({ version: 2, width: 80, height: 24 });
    expect(text).toContain("GNU/Linux");
    // Replayed through the API as it was stored; another domain's admin cannot read it.
    const replay = await f.t.app.inject({
      method: "GET",
      url: `/api/tunnel/${created._id}/recording`,
      headers: { token: admin.token },
    });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.headers["content-type"]).toContain("application/x-asciicast");
    expect(replay.body).toBe(text);
    const stranger = await signIn(
      f.t.app,
      await buildUser(f.t, { role: 2, domainId: (await buildDomain(f.t)).id }),
    );
    const foreign = await f.t.app.inject({
      method: "GET",
      url: `/api/tunnel/${created._id}/recording`,
      headers: { token: stranger },
    });
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, "ATUN_SRV_NOT_FOUND"]);
  });

  it("an assistant's request waits for approval: nobody approves their own, a junior never; an admin does", async () => {
    const device = await f.device();
    await f.router(device);
    const assistant = await f.person("assistant");
    const junior = await f.person("junior");
    const admin = await f.person("admin");
    const created = await requestTunnel(f, assistant.token, device.id, 20);
    expect(created.state).toBe("waiting");
    // Nothing recorded before a session has run: FILE_NOT_FOUND.
    const none = await f.t.app.inject({
      method: "GET",
      url: `/api/tunnel/${created._id}/recording`,
      headers: { token: admin.token },
    });
    expect([none.statusCode, none.json().code]).toEqual([404, "FILE_NOT_FOUND"]);
    // Waiting: the terminal is refused with the §8 code of an unknown or expired session link.
    const early = await openTerminal(f, assistant.token, created._id);
    expect((await early.ended).code).toBe("ATUN_SRV_NOT_FOUND");
    const approve = (token: string, body: object) =>
      f.post(token, `/api/tunnel/${created._id}/approve`, body);
    expect((await approve(assistant.token, { device_id: device.id, minutes: 20 })).statusCode).toBe(403);
    expect((await approve(junior.token, { device_id: device.id, minutes: 20 })).statusCode).toBe(403);
    // The approval names the router and the duration: another router or a longer time is refused.
    const other = await f.device();
    expect((await approve(admin.token, { device_id: other.id, minutes: 20 })).statusCode).toBe(400);
    expect((await approve(admin.token, { device_id: device.id, minutes: 60 })).statusCode).toBe(400);
    const approved = await approve(admin.token, { device_id: device.id, minutes: 10 });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<TunnelSession>()).toMatchObject({
      state: "approved",
      minutes: 10,
      approver: expect.any(String),
    });
    // Only its author opens it.
    const stranger = await openTerminal(f, admin.token, created._id);
    expect((await stranger.ended).code).toBe("ATUN_SRV_NOT_FOUND");
    const terminal = await openTerminal(f, assistant.token, created._id);
    terminal.type("hostname\r"); // typed before the router dialled in: kept for its shell
    await terminal.waitForOutput(`${device.ident}\r\n`);
    terminal.close();
    await eventually(async () => (await session(admin.token, created._id))?.state === "ended", "ended");
  });

  it("a refused request never opens", async () => {
    const device = await f.device();
    const junior = await f.person("junior");
    const assistant = await f.person("assistant");
    const created = await requestTunnel(f, junior.token, device.id);
    const refused = await f.post(assistant.token, `/api/tunnel/${created._id}/refuse`);
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json<TunnelSession>().state).toBe("refused");
    const terminal = await openTerminal(f, junior.token, created._id);
    expect((await terminal.ended).code).toBe("ATUN_SRV_NOT_FOUND");
  });

  it("an approved session not opened within the hour after its approval has expired", async () => {
    const device = await f.device();
    await f.router(device);
    const assistant = await f.person("assistant");
    const admin = await f.person("admin");
    const created = await requestTunnel(f, assistant.token, device.id, 20);
    const approved = await f.post(admin.token, `/api/tunnel/${created._id}/approve`, {
      device_id: device.id,
      minutes: 20,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    f.t.clock.advanceMinutes(TUNNEL_OPEN_WITHIN_MINUTES);
    const late = await openTerminal(f, assistant.token, created._id);
    expect((await late.ended).code).toBe("ATUN_SRV_NOT_FOUND");
  });

  it("the router's password signs in once, and only within its 30 seconds", async () => {
    const device = await f.device();
    // A router whose clock runs a year ahead (of the console's test clock too) takes every
    // tunnel_open for expired and never dials: the test dials with what it was sent.
    const router = await f.router(device, { now: () => Date.now() + 365 * 86_400_000 });
    const sent: TunnelOpenMessage[] = [];
    router.mqttClient?.on("message", (topic, payload) => {
      const parsed = TunnelOpenMessageSchema.safeParse(JSON.parse(payload.toString()));
      if (topic === tunnelTopic(device.ident) && parsed.success) sent.push(parsed.data);
    });
    const admin = await f.person("admin");
    const message = async () => {
      const created = await requestTunnel(f, admin.token, device.id);
      const terminal = await openTerminal(f, admin.token, created._id);
      await eventually(() => sent.some((m) => m.session === created._id), "tunnel_open sent");
      return { terminal, message: sent.find((m) => m.session === created._id) as TunnelOpenMessage };
    };
    const once = await message();
    expect(await dial(once.message)).toBe("signed in");
    expect(await dial(once.message)).toBe("refused");
    once.terminal.close();
    const late = await message();
    f.t.clock.advance(ROUTER_DIAL_TIMEOUT_MS);
    expect(await dial(late.message)).toBe("refused");
    late.terminal.close();
  });

  it("a router that is not connected answers PEER_NOT_CONNECTED", async () => {
    const device = await f.device();
    const admin = await f.person("admin");
    const created = await requestTunnel(f, admin.token, device.id);
    const terminal = await openTerminal(f, admin.token, created._id);
    expect((await terminal.ended).code).toBe("PEER_NOT_CONNECTED");
  });

  it("an admin ends another's open session now; the assistant cannot end the admin's", async () => {
    const device = await f.device();
    await f.router(device);
    const admin = await f.person("admin");
    const assistant = await f.person("assistant");
    const created = await requestTunnel(f, admin.token, device.id);
    const terminal = await openTerminal(f, admin.token, created._id);
    await terminal.waitForOutput("~# ");
    expect((await f.post(assistant.token, `/api/tunnel/${created._id}/end`)).statusCode).toBe(403);
    const otherAdmin = await f.person("admin");
    const ended = await f.post(otherAdmin.token, `/api/tunnel/${created._id}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await terminal.ended).reason).toBe("ended_by_user");
    await eventually(
      async () => (await session(admin.token, created._id))?.end_reason === "ended_by_user",
      "audited",
    );
  });
});
