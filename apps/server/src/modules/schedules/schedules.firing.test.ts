import type { ScheduleRuleInput } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appNodes } from "../../test/app-nodes";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestClock } from "../../test/test-clock";
import { createTestDatabase, type TestDatabase } from "../../test/test-db";
import { enqueueFiring, SCHEDULE_FIRE_JOB } from "./schedules.jobs";

// Two server nodes on one database, both dispatching: a rule's occurrence makes one command, also
// when the same occurrence is queued again after it fired; and a node started after both stopped
// fires the next occurrence from the job the firing left.

const clock = createTestClock(new Date("2026-06-10T09:00:20Z"));
let store: TestDatabase;
const nodes = appNodes(() => store, clock);

beforeAll(async () => {
  store = await createTestDatabase();
});
afterAll(async () => {
  await nodes.close();
  await store.drop();
});

const startNode = () => nodes.start();
const view = nodes.view;

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const commandsOf = (ruleId: string) =>
  store.database.db
    .selectFrom("commands")
    .select(["id", "schedule_occurrence", "run_until", "total", "author_id", "needs_approval"])
    .where("schedule_rule_id", "=", ruleId)
    .orderBy("schedule_occurrence")
    .execute();

const firings = (ruleId: string) =>
  store.database.db
    .selectFrom("jobs")
    .select(["state", "run_at"])
    .where("kind", "=", SCHEDULE_FIRE_JOB)
    .where(({ ref, eb }) => eb(ref("payload", "->>").key("ruleId" as never), "=", ruleId))
    .orderBy("run_at")
    .execute();

describe("schedule firing on two nodes", () => {
  it("fires each occurrence once across nodes, and again after a restart", { timeout: 90_000 }, async () => {
    const a = await startNode();
    const b = await startNode();
    const domainId = (await buildDomain(view(a))).id;
    const admin = await signIn(a, await buildUser(view(a), { role: 2, domainId }));
    for (let i = 0; i < 3; i += 1) await buildDevice(view(a), domainId);
    // Daily at 09:02 UTC: two minutes after the clock's 09:00:20.
    const rule: ScheduleRuleInput = {
      name: "Daily backup",
      active: true,
      regular: { basic: "daily", options: { weeks: [], days: [] }, time: "09:02" },
      active_for: "all",
      search: { filterTags: [] },
      copies: 3,
    };
    const created = await a.inject({
      method: "POST",
      url: "/api/crontab/backup",
      headers: { token: admin },
      payload: rule,
    });
    expect(created.statusCode, created.body).toBe(200);
    const ruleId: string = created.json().item._id;
    const occurrence = new Date("2026-06-10T09:02:00Z");
    expect(created.json().item.next_run).toBe(occurrence.getTime());

    a.jobDispatcher.start();
    b.jobDispatcher.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await commandsOf(ruleId)).toHaveLength(0);
      clock.advance(2 * 60_000);
      await waitUntil(async () => (await commandsOf(ruleId)).length > 0, "the firing");
      // The same occurrence queued again (a catch-up racing the firing) finds the rule moved on.
      await a.jobs.transaction((trx) => enqueueFiring({ jobs: a.jobs }, trx, domainId, ruleId, occurrence));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [command, ...others] = await commandsOf(ruleId);
      expect(others).toEqual([]);
      expect(command).toMatchObject({ total: 3, author_id: "system", needs_approval: false });
      expect(command?.schedule_occurrence?.getTime()).toBe(occurrence.getTime());
      // Valid until the next occurrence, a day later, which is queued.
      expect(command?.run_until?.getTime()).toBe(occurrence.getTime() + 24 * 3600_000);
      const jobs = await firings(ruleId);
      expect(jobs.filter((job) => job.state === "queued").map((job) => job.run_at.getTime())).toEqual([
        occurrence.getTime() + 24 * 3600_000,
      ]);
      const executions = await store.database.db
        .selectFrom("command_executions")
        .select("status")
        .where("command_id", "=", command?.id as string)
        .execute();
      expect(executions.map((row) => row.status)).toEqual(["queued", "queued", "queued"]);
    } finally {
      await a.close();
      await b.close();
    }

    // Both nodes gone; a new one starts a day later and fires the occurrence it finds queued.
    clock.advance(24 * 3600_000);
    const c = await startNode();
    try {
      c.jobDispatcher.start();
      await waitUntil(async () => (await commandsOf(ruleId)).length === 2, "the firing after the restart");
      // (The admin's session lapsed over the day: the rule is read from the database.)
      const stored = await store.database.db
        .selectFrom("schedule_rules")
        .select(["last_run", "next_run"])
        .where("id", "=", ruleId)
        .executeTakeFirstOrThrow();
      expect(stored.last_run?.getTime()).toBe(occurrence.getTime() + 24 * 3600_000);
      expect(stored.next_run?.getTime()).toBe(occurrence.getTime() + 48 * 3600_000);
    } finally {
      await c.close();
    }
  });
});
