import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { createInProcessBus } from "../platform/bus/in-process-bus";
import { type Config, loadConfig } from "../platform/config";
import { type Database, openDatabase } from "../platform/db/database";
import type { TestApp } from "./test-app";
import type { TestClock } from "./test-clock";
import type { TestDatabase } from "./test-db";

/** Whole server nodes on one test database and clock: the durable jobs' "once across nodes" tests. */
export interface AppNodes {
  /** A new node (its own connections on PostgreSQL), ready, its dispatcher not yet started. */
  start(config?: Partial<Config>): Promise<FastifyInstance>;
  /** A node seen as a TestApp, for the factories. */
  view(app: FastifyInstance): TestApp;
  /** Closes the extra connections (after the nodes are closed). */
  close(): Promise<void>;
}

/** Nodes of the store's database whose clock is `clock`. */
export function appNodes(store: () => TestDatabase, clock: TestClock): AppNodes {
  const extraDatabases: Database[] = [];
  return {
    async start(config = {}) {
      let database = store().database;
      const url = store().url;
      if (url) {
        database = openDatabase({ kind: "postgres", url, maxConnections: 4 });
        extraDatabases.push(database);
      }
      const app = await buildApp({
        config: { ...loadConfig({}), loginRateLimit: 10_000, ...config },
        database,
        bus: createInProcessBus(),
        now: clock.now,
        webDistDir: "/nonexistent-cellfleet-web-dist",
        jobTimings: { pollMs: 25 },
      });
      await app.ready();
      return app;
    },
    view: (app) => ({ app, db: store().database.db, clock }) as unknown as TestApp,
    async close() {
      for (const database of extraDatabases) await database.close();
    },
  };
}
