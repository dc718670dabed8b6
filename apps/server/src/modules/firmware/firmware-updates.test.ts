import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import {
  createRule,
  createTelegram,
  type NotifyTest,
  PRIVATE_CHAT,
  runTimers,
  settle,
  startNotifyTest,
} from "../notifications/notifications.test-support";

// The notifications' 'firmware update available' timer reads the ready software rules: a router of
// a rule's model that reports another version than the rule's file gets a message; one already on
// it, one of another model, and a rule not fetched yet give none.

describe("firmware update available (notifications hook)", () => {
  let n: NotifyTest;
  let files: Server;
  let base: string;
  beforeAll(async () => {
    n = await startNotifyTest();
    files = createServer((request, response) => {
      if (request.url?.startsWith("/missing/")) return void response.writeHead(404).end();
      response.writeHead(200).end(Buffer.alloc(1024, 1));
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => files.close(resolve));
    await n.close();
  });

  it("fires for routers of a ready rule's models on another version, and only for them", async () => {
    const root = await signIn(n.t.app, await buildUser(n.t, { role: 1 }));
    for (const [url, models] of [
      [`${base}/fw/RUT9_R_00.07.08.2.bin`, ["RUT955", "RUT950"]],
      // Never ready: its file is missing, so its model gets no message.
      [`${base}/missing/RUTX_R_00.07.08.2.bin`, ["RUTX11"]],
    ] as const) {
      const created = await n.t.app.inject({
        method: "POST",
        url: "/api/software/new",
        headers: { token: root },
        payload: { name: url, url, models },
      });
      expect(created.statusCode, created.body).toBe(200);
    }
    await n.t.jobs.runUntilIdle();

    const domainId = (await buildDomain(n.t)).id;
    const admin = await signIn(n.t.app, await buildUser(n.t, { role: 2, domainId }));
    const transportId = await createTelegram(n.t.app, admin, { chat_id: PRIVATE_CHAT });
    const old = await buildDevice(n.t, domainId, { model: "RUT955", firmware: "RUT9_R_00.07.06.10" });
    const current = await buildDevice(n.t, domainId, { model: "RUT950", firmware: "RUT9_R_00.07.08.2" });
    const otherModel = await buildDevice(n.t, domainId, { model: "RUTX11", firmware: "RUTX_R_00.07.04.5" });
    const otherDomain = await buildDevice(n.t, (await buildDomain(n.t)).id, {
      model: "RUT955",
      firmware: "RUT9_R_00.07.04.5",
    });
    await createRule(n.t.app, admin, {
      monitor: { name: "firmware_update", check_delay: 24 },
      transport_id: transportId,
    });
    expect(await runTimers(n.t)).toBe(true);
    await settle(n.t);
    const texts = n.bot.messages.map((message) => message.text).join("\n");
    expect(texts).toContain(`${old.ident}: firmware RUT9_R_00.07.08.2 is available`);
    for (const quiet of [current, otherModel, otherDomain]) expect(texts).not.toContain(quiet.ident);
  });
});
