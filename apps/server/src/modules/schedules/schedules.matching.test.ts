import { randomUUID } from "node:crypto";
import type { ScheduleRuleInput } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJsonb } from "../../platform/db/schema";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { applyRetention } from "../files/files-retention";

// What a firing reads and leaves: the routers carrying the rule's tags at that moment, an offline
// router's execution expiring at the next occurrence, and the files of a rule's commands kept by
// the rule's copies (1 and 100) apart from a person's.

const DAY = 24 * 3600_000;
let t: TestApp;
let domainId: string;
let adminUser: Awaited<ReturnType<typeof buildUser>>;
/** A fresh session each time: the clock moves days, past any session's inactivity limit. */
const adminToken = () => signIn(t.app, adminUser);

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  t.clock.advance(Date.parse("2026-06-10T08:00:00Z") - t.clock.now().getTime());
  domainId = (await buildDomain(t)).id;
  adminUser = await buildUser(t, { role: 2, domainId });
});
afterAll(async () => {
  await t.close();
});

/** A daily rule at 09:00 UTC for the tags given (all routers without). */
async function createRule(type: "backup" | "journal", tags: string[], copies = 10): Promise<string> {
  const rule: ScheduleRuleInput = {
    name: `Rule ${randomUUID().slice(0, 6)}`,
    active: true,
    regular: { basic: "daily", options: { weeks: [], days: [] }, time: "09:00" },
    active_for: tags.length > 0 ? "group" : "all",
    search: { filterTags: tags },
    copies,
  };
  const response = await t.app.inject({
    method: "POST",
    url: `/api/crontab/${type}`,
    headers: { token: await adminToken() },
    payload: rule,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().item._id;
}

/** Moves the clock a day at a time (so no firing is skipped) and runs every due job. */
async function passDays(days: number): Promise<void> {
  for (let day = 0; day < days; day += 1) {
    t.clock.advance(DAY);
    await t.jobs.runSchedules();
    await t.jobs.runUntilIdle();
  }
}

const commandsOf = (ruleId: string) =>
  t.db
    .selectFrom("commands")
    .select(["id", "run_until", "schedule_occurrence"])
    .where("schedule_rule_id", "=", ruleId)
    .orderBy("schedule_occurrence")
    .execute();

const executionsOf = (commandId: string) =>
  t.db
    .selectFrom("command_executions")
    .select(["device_id", "status"])
    .where("command_id", "=", commandId)
    .execute();

describe("a firing's routers", () => {
  it("are those carrying the tags when it fires, joined later included; unable ones left out", async () => {
    const north = await buildDevice(t, domainId, { tags: ["north"] });
    const later = await buildDevice(t, domainId, { tags: ["south"] });
    const never = await buildDevice(t, domainId, { tags: ["west"] });
    const unable = await buildDevice(t, domainId, { tags: ["north"], command_types: "shell,reboot" });
    const ruleId = await createRule("backup", ["north"]);
    // Tagged after the rule was saved, before it fires.
    await t.db
      .updateTable("devices")
      .set({ tags: toJsonb(["south", "north"]) })
      .where("id", "=", later.id)
      .execute();
    await passDays(1);
    const [command] = await commandsOf(ruleId);
    expect(command).toBeDefined();
    const devices = (await executionsOf(command?.id as string)).map((row) => row.device_id).sort();
    expect(devices).toEqual([north.id, later.id].sort());
    expect(devices).not.toContain(never.id);
    expect(devices).not.toContain(unable.id);
  });

  it("an offline router's execution waits until the next occurrence, then ends expired", async () => {
    const device = await buildDevice(t, domainId, { tags: ["offline-site"] });
    const ruleId = await createRule("journal", ["offline-site"]);
    await passDays(1);
    const [first] = await commandsOf(ruleId);
    expect(await executionsOf(first?.id as string)).toEqual([{ device_id: device.id, status: "queued" }]);
    expect(first?.run_until?.getTime()).toBe((first?.schedule_occurrence?.getTime() as number) + DAY);
    await passDays(1);
    expect((await executionsOf(first?.id as string))[0]?.status).toBe("expired");
    const command = await t.db
      .selectFrom("commands")
      .select("status")
      .where("id", "=", first?.id as string)
      .executeTakeFirstOrThrow();
    expect(command.status).toBe("expired");
    // The next occurrence made its own command, queued in turn.
    const commands = await commandsOf(ruleId);
    expect(commands).toHaveLength(2);
    expect((await executionsOf(commands[1]?.id as string))[0]?.status).toBe("queued");
  });

  it("a switched-off rule's queued occurrence makes nothing", async () => {
    await buildDevice(t, domainId, { tags: ["paused"] });
    const ruleId = await createRule("backup", ["paused"]);
    const off = await t.app.inject({
      method: "PATCH",
      url: `/api/crontab/backup/${ruleId}`,
      headers: { token: await adminToken() },
      payload: { active: false },
    });
    expect(off.json().item.active).toBe(false);
    await passDays(2);
    expect(await commandsOf(ruleId)).toEqual([]);
  });
});

describe("retention of a rule's files", () => {
  /** Stores a completed copy on the router as if its upload for the command had come, `age` ms old. */
  async function storeCopy(deviceId: string, commandId: string | null, age: number): Promise<string> {
    const id = randomUUID();
    await t.db
      .insertInto("files")
      .values({
        id,
        domain_id: domainId,
        file_type: "backup",
        filename: `${id}.tar.gz`,
        size: 10,
        sha256: id,
        status: "completed",
        device_id: deviceId,
        command_id: commandId,
        create_time: new Date(t.clock.now().getTime() - age),
      })
      .execute();
    return id;
  }

  const copiesOf = async (deviceId: string) =>
    (
      await t.db
        .selectFrom("files")
        .select("id")
        .where("device_id", "=", deviceId)
        .orderBy("create_time", "desc")
        .execute()
    ).map((row) => row.id);

  it("keeps one copy for a rule of 1, apart from a person's backups (the domain's 10)", async () => {
    const device = await buildDevice(t, domainId, { tags: ["keep-one"] });
    const ruleId = await createRule("backup", ["keep-one"], 1);
    await passDays(3);
    const commands = await commandsOf(ruleId);
    expect(commands).toHaveLength(3);
    const ruleCopies: string[] = [];
    for (const [index, command] of commands.entries())
      ruleCopies.push(await storeCopy(device.id, command.id, (3 - index) * 1000));
    const personal = await storeCopy(device.id, null, 5000);
    const deleted = await applyRetention(t.ctx, domainId, device.id, "backup");
    expect(deleted.sort()).toEqual(ruleCopies.slice(0, 2).sort());
    expect(await copiesOf(device.id)).toEqual([ruleCopies[2], personal]);
  });

  it("keeps 100 copies for a rule of 100, more than the domain's 10", async () => {
    const device = await buildDevice(t, domainId, { tags: ["keep-hundred"] });
    const ruleId = await createRule("backup", ["keep-hundred"], 100);
    await passDays(1);
    const [command] = await commandsOf(ruleId);
    const stored: string[] = [];
    for (let age = 101; age >= 1; age -= 1)
      stored.push(await storeCopy(device.id, command?.id as string, age));
    const deleted = await applyRetention(t.ctx, domainId, device.id, "backup");
    // The oldest goes; the newest hundred stay.
    expect(deleted).toEqual([stored[0]]);
    expect(await copiesOf(device.id)).toHaveLength(100);
    // Down to 2: the saving queues retention, which trims every router at once.
    const rule = (
      await t.app.inject({
        method: "POST",
        url: `/api/crontab/backup/${ruleId}`,
        headers: { token: await adminToken() },
      })
    ).json().item;
    const { _id, type, next_run, last_run, last_command_id, create_time, ...input } = rule;
    const saved = await t.app.inject({
      method: "PUT",
      url: `/api/crontab/backup/${ruleId}`,
      headers: { token: await adminToken() },
      payload: { ...input, copies: 2 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.jobs.runUntilIdle();
    expect(await copiesOf(device.id)).toEqual(stored.slice(-2).reverse());
  });
});
