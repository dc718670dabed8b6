import { afterAll, beforeAll, expect, it } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import {
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  runTimers,
  settle,
  startNotifyTest,
} from "../notifications/notifications.test-support";
import { type LicenceServiceHarness, startLicenceService } from "./licences.test-support";

// The notify-in-advance timer (spec §3) with the licence source this module registers: a licence
// activated by the real service, ending within the rule's hours, is announced once.

const DAY_MS = 24 * 3600_000;
let n: NotifyTest;
let vendor: LicenceServiceHarness;

beforeAll(async () => {
  let now = () => new Date();
  vendor = await startLicenceService(() => now());
  n = await startNotifyTest({
    config: { licenses: { serverUrl: vendor.url, publicKeys: [vendor.publicKey], unlicensedDeviceLimit: 0 } },
  });
  now = n.t.clock.now;
});
afterAll(async () => {
  await n?.close();
  await vendor?.close();
});

it("warns within notify-in-advance hours before a licence ends, once", async () => {
  const root = await signIn(n.t.app, await buildUser(n.t, { role: 1 }));
  const key = await vendor.addKey({ deviceCount: 10, days: 2 });
  const added = await call(n.t.app, root, "/api/licenses/new", { key });
  expect(added.status).toBe(200);
  await n.t.jobs.runUntilIdle();
  const listed = await call(n.t.app, root, "/api/licenses");
  expect(listed.body.items[0]).toMatchObject({ status: 2, devices: 10 });

  const domainId = (await buildDomain(n.t)).id;
  const admin = await signIn(n.t.app, await buildUser(n.t, { role: 2, domainId }));
  const transportId = await createTelegram(n.t.app, admin);
  // 24 hours ahead: the licence (48 hours left) is not news yet.
  await createRule(n.t.app, admin, {
    monitor: { name: "notify_in_advance", check_delay: 24, variables: { subject: "license" } },
    transport_id: transportId,
  });
  const texts = () => n.bot.messages.map((message) => message.text.split("\n")[0]);
  await runTimers(n.t);
  await settle(n.t);
  expect(texts()).toEqual([]);

  n.t.clock.advance(DAY_MS + 3600_000);
  for (let minute = 0; minute < 3; minute += 1) {
    await runTimers(n.t);
    await settle(n.t, 60_000);
  }
  expect(texts()).toEqual([expect.stringContaining(`Licence ${key.slice(0, 8).toUpperCase()}`)]);
});
