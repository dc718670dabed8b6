// A Cellfleet server of its own for the notifications browser test: the real app, device side
// (embedded broker) and job dispatcher on an embedded database, with a clock the test moves
// forward (a router only goes critical after minutes of silence). It reads commands on stdin:
// `settle` waits until a stopped router's reports are stored, `advance <ms>` moves the clock, `sweep`
// runs the status sweep now; it answers one line each.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { buildApp } from "../../apps/server/src/app";
import { startDeviceSide } from "../../apps/server/src/device-side";
import { runStatusSweep } from "../../apps/server/src/modules/devices-status/status-sweep.service";
import { runFirstStart } from "../../apps/server/src/modules/setup/first-start";
import { usersRepo } from "../../apps/server/src/modules/users/users.repo";
import { hashPassword } from "../../apps/server/src/platform/auth/passwords";
import { createInProcessBus } from "../../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../../apps/server/src/platform/config";
import { openDatabase } from "../../apps/server/src/platform/db/database";
import { migrateToLatest } from "../../apps/server/src/platform/db/migrate";
import { toJsonb } from "../../apps/server/src/platform/db/schema";
import { NOTIFY_ADMIN, NOTIFY_ROUTER } from "./accounts";

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const quiet = { info() {}, warn() {}, error: (obj: object, msg: string) => console.error(msg, obj) };

const config = loadConfig();
const database = openDatabase({ kind: "pglite", dataDir: path.join(config.dataDir, "db") });
await migrateToLatest(database.db);
await runFirstStart(database.db, { rootPassword: config.rootPassword, now, log: quiet });

// A domain whose routers count as critical after 15 minutes of silence (the shortest thresholds).
const domainId = randomUUID();
await database.db
  .insertInto("domains")
  .values({
    id: domainId,
    name: "notify",
    full_name: "Notifications test",
    settings: toJsonb({
      status: [
        { name: "online", minutes: 15 },
        { name: "warning", minutes: 15 },
      ],
      backup: { copies: 10 },
      journal: { copies: 10 },
    }),
  })
  .execute();
await usersRepo(database.db).insertUser(domainId, {
  username: NOTIFY_ADMIN.username,
  full_name: NOTIFY_ADMIN.fullName,
  role: 2,
  email: "noc@example.com",
  plugins: toJsonb(["notification", "accounting", "keychain"]),
  password_hash: await hashPassword(NOTIFY_ADMIN.password),
  factory_password: false,
  password_changed_at: now(),
  create_time: now(),
});
await database.db
  .insertInto("devices")
  .values({
    id: randomUUID(),
    domain_id: domainId,
    ident: NOTIFY_ROUTER.ident,
    description: "Roof router",
    aes_key: NOTIFY_ROUTER.key,
    tags: toJsonb(["roof"]),
    meta: toJsonb({}),
    create_time: now(),
  })
  .execute();

const bus = createInProcessBus();
const app = await buildApp({ config, database, bus, now });
const deviceSide = await startDeviceSide(config, {
  db: database.db,
  bus,
  now,
  log: quiet,
  jobs: app.jobs,
  hooks: app.hooks,
  refusals: app.refusals,
});
await app.listen({ port: config.port, host: "127.0.0.1" });
app.jobDispatcher.start();

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [command, value] = line.trim().split(/\s+/);
  void (async () => {
    if (command === "advance") {
      offsetMs += Number(value);
      process.stdout.write(`advanced ${offsetMs}\n`);
    } else if (command === "settle") {
      // What a stopped router had sent is stored before the clock moves: its connection is gone
      // (the broker handled every packet it read from it) and ingest holds nothing. A report stored
      // after `advance` would count as fresh contact and undo the silence the test waits for.
      for (;;) {
        const row = await database.db
          .selectFrom("devices")
          .select("connected")
          .where("ident", "=", NOTIFY_ROUTER.ident)
          .executeTakeFirst();
        if (row?.connected !== true && deviceSide.ingest.ingest.stats().queued === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      process.stdout.write("settled\n");
    } else if (command === "sweep") {
      const changed = await runStatusSweep({ db: database.db, bus, now, jobs: app.jobs });
      process.stdout.write(`swept ${changed}\n`);
    }
  })();
});
lines.on("close", () => {
  void (async () => {
    await app.close();
    await deviceSide.close();
    await database.close();
    process.exit(0);
  })();
});
process.stdout.write(`ready ${deviceSide.ingest.gateway.url}\n`);
