// Starts the real server for the browser tests, after seeding what they need that the console cannot
// create yet (the demo routers' rows, an operator in the demo domain, dead jobs, a router with two
// days of history). Routers' backups and journals are not seeded: files.spec asks the demo routers
// for them with commands. The database is the embedded PGlite under DATA_DIR.
import path from "node:path";
import { seedDemoFleet } from "../../apps/server/src/modules/setup/demo-fleet";
import { runFirstStart } from "../../apps/server/src/modules/setup/first-start";
import { usersRepo } from "../../apps/server/src/modules/users/users.repo";
import { hashPassword } from "../../apps/server/src/platform/auth/passwords";
import { loadConfig } from "../../apps/server/src/platform/config";
import { openDatabase } from "../../apps/server/src/platform/db/database";
import { migrateToLatest } from "../../apps/server/src/platform/db/migrate";
import { toJsonb } from "../../apps/server/src/platform/db/schema";
import { ASSISTANT, FLEET_ADMIN, JUNIOR, OPERATOR } from "./accounts";
import { seedDeadMailJobs } from "./dead-jobs";
import { startLicenseService } from "./license-service";
import { startMailbox } from "./mailbox";
import { seedHistoryRouter } from "./router-history";

// Mail goes to a loopback SMTP server whose messages the tests read (registration, password reset).
if (process.env.E2E_MAILBOX_DIR && !process.env.SMTP_URL) {
  process.env.SMTP_URL = (await startMailbox(process.env.E2E_MAILBOX_DIR)).url;
}

const config = loadConfig();
const database = openDatabase({ kind: "pglite", dataDir: path.join(config.dataDir, "db") });
await migrateToLatest(database.db);
await runFirstStart(database.db, { rootPassword: config.rootPassword, now: () => new Date(), log: console });

const users = usersRepo(database.db);
if (!(await users.findUserWithPasswordHashByUsernameAcrossDomains(OPERATOR.username))) {
  const demo = await database.db
    .selectFrom("domains")
    .select("id")
    .where("name", "=", "demo")
    .executeTakeFirstOrThrow();
  const now = new Date();
  const passwordHash = await hashPassword(OPERATOR.password);
  await users.insertUser(demo.id, {
    username: OPERATOR.username,
    full_name: OPERATOR.fullName,
    role: 4,
    plugins: toJsonb([]),
    password_hash: passwordHash,
    factory_password: false,
    password_changed_at: now,
    create_time: now,
  });
}
if (!(await users.findUserWithPasswordHashByUsernameAcrossDomains(FLEET_ADMIN.username))) {
  const demo = await database.db
    .selectFrom("domains")
    .select("id")
    .where("name", "=", "demo")
    .executeTakeFirstOrThrow();
  const now = new Date();
  await users.insertUser(demo.id, {
    username: FLEET_ADMIN.username,
    full_name: FLEET_ADMIN.fullName,
    role: 2,
    plugins: toJsonb([]),
    password_hash: await hashPassword(FLEET_ADMIN.password),
    factory_password: false,
    password_changed_at: now,
    create_time: now,
  });
}
for (const [person, isJunior] of [
  [JUNIOR, true],
  [ASSISTANT, false],
] as const) {
  if (await users.findUserWithPasswordHashByUsernameAcrossDomains(person.username)) continue;
  const demo = await database.db
    .selectFrom("domains")
    .select("id")
    .where("name", "=", "demo")
    .executeTakeFirstOrThrow();
  const now = new Date();
  await users.insertUser(demo.id, {
    username: person.username,
    full_name: person.fullName,
    role: 3,
    is_junior: isJunior,
    plugins: toJsonb(["notification"]),
    password_hash: await hashPassword(person.password),
    factory_password: false,
    password_changed_at: now,
    create_time: now,
  });
}
await seedDeadMailJobs(database.db);
await seedDemoFleet(database.db, config.simulate);
await seedHistoryRouter(database.db);
await database.close();

// The vendor's licence service on loopback, for licenses.spec.ts (the console's default public key
// is the development key's, which this service signs with).
process.env.LICENSE_SERVER_URL ??= await startLicenseService();

await import("../../apps/server/src/main");
