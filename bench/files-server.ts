// The server side of the files benchmark, as a child process so the client does not share its event
// loop: PGlite in BENCH_DIR/db, files on the local disk in BENCH_DIR/files (or S3_URL), one domain
// with an admin (signed in) and a router. Tells the parent { port, token, filesDir }; on a message
// { prepare: "upload" | "download", fileId? } it answers the command `file` object the files
// feature makes for the router, as the actions feature will.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { DEFAULT_DOMAIN_SETTINGS } from "@cellfleet/contract";
import { buildApp } from "../apps/server/src/app";
import {
  prepareDeviceDownload,
  prepareDeviceUpload,
} from "../apps/server/src/modules/files/device-transfers.service";
import { runFirstStart } from "../apps/server/src/modules/setup/first-start";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import type { AppContext } from "../apps/server/src/platform/context";
import { openDatabase } from "../apps/server/src/platform/db/database";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";

const dir = process.env.BENCH_DIR ?? "/tmp/cellfleet-bench-files";
const database = openDatabase({ kind: "pglite", dataDir: path.join(dir, "db") });
const { db } = database;
await migrateToLatest(db);
await runFirstStart(db, { rootPassword: "Bench-root-1", now: () => new Date(), log: { warn() {} } });
const domainId = randomUUID();
await db
  .insertInto("domains")
  .values({ id: domainId, name: `bench_${domainId.slice(0, 8)}`, settings: toJsonb(DEFAULT_DOMAIN_SETTINGS) })
  .execute();
const username = `bench_${domainId.slice(0, 8)}`;
const password = `Bench-${randomUUID()}`;
await db
  .insertInto("users")
  .values({
    id: randomUUID(),
    domain_id: domainId,
    username,
    role: 2,
    plugins: toJsonb([]),
    password_hash: await hashPassword(password),
    password_changed_at: new Date(),
  })
  .execute();
const deviceId = randomUUID();
await db.insertInto("devices").values({ id: deviceId, domain_id: domainId, ident: "BENCHROUTER1" }).execute();

let ctx: AppContext | undefined;
const config = {
  ...loadConfig({}),
  dataDir: dir,
  s3: loadConfig(process.env).s3,
  publicUrl: "http://127.0.0.1",
};
const app = await buildApp({
  config,
  database,
  bus: createInProcessBus(),
  webDistDir: "/nonexistent",
  extraApiRoutes: [
    async (_api, options) => {
      ctx = options.ctx;
    },
  ],
});
await app.listen({ port: 0, host: "127.0.0.1" });
app.jobDispatcher.start();
const port = (app.server.address() as AddressInfo).port;
const login = await app.inject({ method: "POST", url: "/api/login/", payload: { username, password } });
const token = (login.json() as { token: string }).token;

process.on("message", async (message: unknown) => {
  if (message === "stop") {
    await app.close();
    await database.close();
    process.exit(0);
  }
  const request = message as { prepare: "upload" | "download"; fileId?: string; id: number };
  const context = ctx as AppContext;
  const file = await context.jobs.transaction((trx) =>
    request.prepare === "upload"
      ? prepareDeviceUpload(context, trx, {
          domainId,
          deviceId,
          kind: "report",
          commandId: "bench",
          executionId: randomUUID(),
        })
      : prepareDeviceDownload(context, trx, { domainId, deviceId, fileId: request.fileId as string }),
  );
  process.send?.({ id: request.id, file });
});
process.send?.({ port, token, filesDir: path.join(dir, "files") });
