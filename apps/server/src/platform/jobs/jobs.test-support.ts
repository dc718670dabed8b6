import type { Kysely } from "kysely";
import { createTestClock, type TestClock } from "../../test/test-clock";
import { createTestDatabase } from "../../test/test-db";
import type { Bus } from "../bus/bus";
import { createInProcessBus } from "../bus/in-process-bus";
import type { DB, JobRow } from "../db/schema";
import { loadPlatformSecrets } from "../secrets";
import { createDispatcher, type Dispatcher, type DispatcherTimings } from "./dispatcher";
import { createJobs, type Jobs } from "./jobs";

/** What the platform's own tests put in their jobs. */
interface TestPayload {
  n?: number;
  to?: string;
  deviceId?: string;
}

// The kinds and the event the jobs tests register: declared like any module's (platform/jobs/jobs.ts).
declare module "./jobs" {
  interface JobPayloads {
    "test.ok": TestPayload;
    "test.throws": TestPayload;
    "test.throws-sync": TestPayload;
    "test.hangs": TestPayload;
    "test.flaky": TestPayload;
    "test.secret": TestPayload;
    "test.blocks": TestPayload;
    "test.nobody": TestPayload;
    "test.effect": TestPayload;
    "test.hourly": TestPayload;
    "test.unknown": TestPayload;
  }
}
declare module "./outbox-events" {
  interface OutboxPayloads {
    "device.created": TestPayload;
  }
}

/** Jobs and a dispatcher on a database of the test file's own, with a clock the test moves. */
export interface JobsHarness {
  db: Kysely<DB>;
  bus: Bus;
  clock: TestClock;
  jobs: Jobs;
  dispatcher: Dispatcher;
  /** Another node's dispatcher on the same database and registry. */
  addNode(node: string, timings?: Partial<DispatcherTimings>): Dispatcher;
  job(id: string): Promise<JobRow>;
  close(): Promise<void>;
}

const silentLog = { warn() {}, error() {} };

/** Builds the harness; `random` pins the jitter when a test needs exact times. */
export async function createJobsHarness(
  options: { random?: () => number; timings?: Partial<DispatcherTimings> } = {},
): Promise<JobsHarness> {
  const { database, drop } = await createTestDatabase();
  const db = database.db;
  const clock = createTestClock();
  const bus = createInProcessBus();
  const secrets = await loadPlatformSecrets(db);
  const jobs = createJobs({ db, bus, secrets, now: clock.now });
  const nodes: Dispatcher[] = [];
  const addNode = (node: string, timings?: Partial<DispatcherTimings>) => {
    const dispatcher = createDispatcher({
      db,
      bus,
      jobs,
      secrets,
      node,
      now: clock.now,
      log: silentLog,
      random: options.random,
      timings: { ...options.timings, ...timings },
    });
    nodes.push(dispatcher);
    return dispatcher;
  };
  return {
    db,
    bus,
    clock,
    jobs,
    dispatcher: addNode("node-a"),
    addNode,
    job: (id) => db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    async close() {
      for (const node of nodes) await node.stop();
      await bus.close();
      await drop();
    },
  };
}
