import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobsHarness, type JobsHarness } from "./jobs.test-support";

// Periodic kinds (`jobs.every`): whichever worker node asks, a due kind is enqueued once, a running
// one is never joined by the next, and the due time is the schedule's, not a node's.

const HOUR = 3_600_000;
let h: JobsHarness;
const runs: string[] = [];

beforeAll(async () => {
  h = await createJobsHarness();
  h.jobs.register("test.hourly", {
    async handle({ id }) {
      runs.push(id);
    },
  });
  h.jobs.every("test.hourly", HOUR);
});
afterAll(async () => {
  await h?.close();
});

const live = () =>
  h.db.selectFrom("jobs").select(["id", "state"]).where("kind", "=", "test.hourly").execute();

describe("jobs.every", () => {
  it("refuses a kind without a handler and a kind made periodic twice", () => {
    expect(() => h.jobs.every("test.unknown", HOUR)).toThrow(/not registered/);
    expect(() => h.jobs.every("test.hourly", HOUR)).toThrow(/periodic twice/);
  });

  it("enqueues a due kind once however many nodes ask at the same moment", async () => {
    const other = h.addNode("node-b");
    const third = h.addNode("node-c");
    const asked = await Promise.all([
      h.dispatcher.runSchedules(),
      other.runSchedules(),
      third.runSchedules(),
    ]);
    expect(asked.flat()).toEqual(["test.hourly"]);
    expect(await live()).toHaveLength(1);
  });

  it("is not due again before its interval, and never joins a job still queued", async () => {
    expect(await h.dispatcher.runSchedules()).toEqual([]);
    h.clock.advance(HOUR);
    // Due again, but the first job has not run: the dedupe key keeps one live job.
    expect(await h.dispatcher.runSchedules()).toEqual(["test.hourly"]);
    expect(await live()).toHaveLength(1);
    await h.dispatcher.runUntilIdle();
    expect(runs).toHaveLength(1);
    h.clock.advance(HOUR);
    expect(await h.addNode("restarted").runSchedules()).toEqual(["test.hourly"]);
    await h.dispatcher.runUntilIdle();
    expect(runs).toHaveLength(2);
    expect((await live()).map((job) => job.state)).toEqual(["done", "done"]);
  });
});
