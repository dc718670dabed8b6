import { DEFAULT_DOMAIN_SETTINGS } from "@cellfleet/contract";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import {
  DEVICE_FILE_STORAGES,
  type DeviceFilesFixture,
  openDeviceFilesFixture,
} from "../../test/device-file-fixtures";
import { buildUser, signIn } from "../../test/factories";
import { sweepLapsedTransfers } from "./files.jobs";
import { chooseCopiesByRule, chooseCopiesToDelete, type RetainedCopy } from "./files-retention";

// Retention (spec sections 3 and 5): a domain keeps its configured copies of each router's backups
// and journals; only good copies count, the newest good copy is never deleted.

const copy = (id: string, status: RetainedCopy["status"] = "completed"): RetainedCopy => ({ id, status });

describe("chooseCopiesToDelete", () => {
  it("keeps the newest `keep` good copies and deletes the older ones", () => {
    expect(chooseCopiesToDelete([copy("c"), copy("b"), copy("a")], 1)).toEqual(["b", "a"]);
    expect(chooseCopiesToDelete([copy("c"), copy("b"), copy("a")], 2)).toEqual(["a"]);
    expect(chooseCopiesToDelete([copy("c"), copy("b"), copy("a")], 100)).toEqual([]);
  });

  it("never counts failed copies: they neither push out a good one nor stay behind one", () => {
    const copies = [copy("f3", "failed"), copy("f2", "failed"), copy("g2"), copy("f1", "failed"), copy("g1")];
    // Recent failures (newer than the newest good copy) stay, up to `keep`; older ones go.
    expect(chooseCopiesToDelete(copies, 2)).toEqual(["f1"]);
    expect(chooseCopiesToDelete(copies, 1)).toEqual(["f2", "f1", "g1"]);
  });

  it("keeps the newest good copy whatever the setting says", () => {
    for (const keep of [0, -3, Number.NaN]) {
      expect(chooseCopiesToDelete([copy("f", "failed"), copy("g2"), copy("g1")], keep)).toEqual(["g1"]);
    }
  });

  it("holds for any sequence: the newest good copy stays, and exactly min(keep, good) good copies stay", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 60 }),
        fc.integer({ min: 1, max: 100 }),
        (goods, keep) => {
          const copies = goods.map((isGood, i) => copy(`c${i}`, isGood ? "completed" : "failed"));
          const doomed = new Set(chooseCopiesToDelete(copies, keep));
          const good = copies.filter((entry) => entry.status === "completed");
          if (good[0]) expect(doomed.has(good[0].id)).toBe(false);
          expect(good.filter((entry) => !doomed.has(entry.id)).length).toBe(Math.min(keep, good.length));
        },
      ),
    );
  });
});

describe("chooseCopiesByRule", () => {
  const copy = (id: string, rule: string | null, copies: number | null) => ({
    id,
    status: "completed" as const,
    rule_id: rule,
    rule_copies: copies,
  });

  it("counts each rule's copies apart by its own setting, the rest by the domain's", () => {
    const newestFirst = [
      copy("a1", "a", 1),
      copy("p1", null, null),
      copy("a2", "a", 1),
      copy("b1", "b", 2),
      copy("p2", null, null),
      copy("b2", "b", 2),
      copy("b3", "b", 2),
      copy("gone", "removed", null),
      copy("p3", null, null),
    ];
    // Rule a keeps 1, rule b keeps 2, people's and the removed rule's copies keep the domain's 3.
    expect(chooseCopiesByRule(newestFirst, 3).sort()).toEqual(["a2", "b3", "p3"]);
  });
});

describe.each(DEVICE_FILE_STORAGES)("retention on $name", (backend) => {
  let f: DeviceFilesFixture;
  beforeAll(async () => {
    f = await openDeviceFilesFixture(backend);
  });
  afterAll(async () => {
    await f.close();
  });

  let adminToken: string | undefined;
  /** The copies go through the settings screen's own call: the stored setting retention reads. */
  async function setCopies(backup: number, journal: number) {
    adminToken ??= await signIn(f.t.app, await buildUser(f.t, { role: 2, domainId: f.domainId }));
    const settings = { ...DEFAULT_DOMAIN_SETTINGS, backup: { copies: backup }, journal: { copies: journal } };
    const response = await f.t.app.inject({
      method: "PATCH",
      url: "/api/settings/domains-all",
      headers: { token: adminToken },
      payload: settings,
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  /** A router's upload a second after the last, so "newest" is never a tie. */
  async function uploadFor(deviceId: string, kind: "backup" | "journal", body: Buffer): Promise<string> {
    f.t.clock.advance(1000);
    const file = await f.prepareUpload(kind, { deviceId });
    const response = await f.put(file, body);
    expect(response.statusCode, response.body).toBe(200);
    return new URL(file.url).pathname.split("/").at(-1) as string;
  }

  const copiesOf = async (deviceId: string, kind: "backup" | "journal") =>
    (
      await f.t.db
        .selectFrom("files")
        .select(["id", "status"])
        .where("device_id", "=", deviceId)
        .where("file_type", "=", kind)
        .orderBy("create_time", "desc")
        .execute()
    ).map((row) => `${row.id}:${row.status}`);

  it("keeps one copy when the domain asks for 1, and removes the others' blobs", async () => {
    await setCopies(1, 1);
    const device = await buildDevice(f.t, f.domainId);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await uploadFor(device.id, "backup", Buffer.from(`backup ${i}\n`)));
    await f.t.jobs.runUntilIdle();
    expect(await copiesOf(device.id, "backup")).toEqual([`${ids[2]}:completed`]);
    expect(await f.t.storage.exists(ids[0] as string)).toBe(false);
    expect(await f.t.storage.exists(ids[1] as string)).toBe(false);
    expect(await f.t.storage.exists(ids[2] as string)).toBe(true);
  });

  it("applies fewer copies at once when the settings lower them, to every router that holds more", async () => {
    await setCopies(10, 10);
    const first = await buildDevice(f.t, f.domainId);
    const second = await buildDevice(f.t, f.domainId);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await uploadFor(first.id, "journal", Buffer.from(`journal a${i}\n`)));
    for (let i = 0; i < 2; i++)
      ids.push(await uploadFor(second.id, "journal", Buffer.from(`journal b${i}\n`)));
    await uploadFor(first.id, "backup", Buffer.from("backup a\n"));
    await f.t.jobs.runUntilIdle();
    expect(await copiesOf(first.id, "journal")).toHaveLength(3);
    // Journals from 10 down to 1; backups stay at 10. No upload comes: the save alone trims.
    await setCopies(10, 1);
    await f.t.jobs.runUntilIdle();
    expect(await copiesOf(first.id, "journal")).toEqual([`${ids[2]}:completed`]);
    expect(await copiesOf(second.id, "journal")).toEqual([`${ids[4]}:completed`]);
    expect(await copiesOf(first.id, "backup")).toHaveLength(1);
    expect(await f.t.storage.exists(ids[0] as string)).toBe(false);
  });

  it("keeps a hundred copies when the domain asks for 100, the 101st oldest going", async () => {
    await setCopies(10, 100);
    const device = await buildDevice(f.t, f.domainId);
    const ids: string[] = [];
    for (let i = 0; i < 101; i++)
      ids.push(await uploadFor(device.id, "journal", Buffer.from(`journal ${i}\n`)));
    await f.t.jobs.runUntilIdle();
    const kept = await copiesOf(device.id, "journal");
    expect(kept).toHaveLength(100);
    expect(kept).not.toContain(`${ids[0]}:completed`);
    expect(kept[0]).toBe(`${ids[100]}:completed`);
    expect(await f.t.storage.exists(ids[0] as string)).toBe(false);
  });

  it("never lets failing uploads evict good copies", async () => {
    await setCopies(2, 2);
    const device = await buildDevice(f.t, f.domainId);
    const good = [
      await uploadFor(device.id, "backup", Buffer.from("good one\n")),
      await uploadFor(device.id, "backup", Buffer.from("good two\n")),
    ];
    const failed: string[] = [];
    for (let i = 0; i < 4; i++) {
      // An empty archive arrives but is no good copy; an oversize one is refused and leaves nothing.
      failed.push(await uploadFor(device.id, "backup", Buffer.alloc(0)));
      const big = await f.prepareUpload("backup", { deviceId: device.id, maxBytes: 10 });
      expect((await f.put(big, Buffer.alloc(11, 1))).statusCode).toBe(413);
    }
    await f.t.jobs.runUntilIdle();
    const kept = await copiesOf(device.id, "backup");
    expect(kept).toEqual([
      `${failed[3]}:failed`,
      `${failed[2]}:failed`,
      `${good[1]}:completed`,
      `${good[0]}:completed`,
    ]);
    const flags = await f.t.db
      .selectFrom("devices")
      .select("has_backups")
      .where("id", "=", device.id)
      .executeTakeFirstOrThrow();
    expect(flags.has_backups).toBe(true);
  });

  it("counts a backup sent again unchanged as no new copy", async () => {
    await setCopies(2, 2);
    const device = await buildDevice(f.t, f.domainId);
    const first = await uploadFor(device.id, "backup", Buffer.from("config A\n"));
    const second = await uploadFor(device.id, "backup", Buffer.from("config B\n"));
    for (let i = 0; i < 3; i++) await uploadFor(device.id, "backup", Buffer.from("config B\n"));
    await f.t.jobs.runUntilIdle();
    expect(await copiesOf(device.id, "backup")).toEqual([`${second}:completed`, `${first}:completed`]);
  });

  it("forgets a deleted router's files, blobs included, through the device.deleted event", async () => {
    const admin = await signIn(f.t.app, await buildUser(f.t, { role: 2, domainId: f.domainId }));
    const device = await buildDevice(f.t, f.domainId);
    const backup = await uploadFor(device.id, "backup", Buffer.from("to be forgotten\n"));
    const response = await f.t.app.inject({
      method: "DELETE",
      url: `/api/device/${device.id}`,
      headers: { token: admin },
    });
    expect(response.statusCode, response.body).toBe(200);
    await f.t.jobs.runUntilIdle();
    expect(await copiesOf(device.id, "backup")).toEqual([]);
    expect(await f.t.storage.exists(backup)).toBe(false);
  });

  it("sweeps uploads that never came once their URL lapsed an hour ago", async () => {
    const file = await f.prepareUpload("journal");
    const id = new URL(file.url).pathname.split("/").at(-1) as string;
    f.t.clock.advanceMinutes(30);
    expect(await sweepLapsedTransfers(f.ctx)).toBe(0);
    f.t.clock.advanceMinutes(60);
    expect(await sweepLapsedTransfers(f.ctx)).toBeGreaterThanOrEqual(1);
    const transfer = await f.t.db
      .selectFrom("file_transfers")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(transfer.state).toBe("expired");
  });
});
