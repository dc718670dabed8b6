// The server side of the listing benchmark, run as a child process so the load generator does not
// share its event loop: opens the database (PostgreSQL at BENCH_PG_URL or PGlite in BENCH_PGLITE_DIR),
// migrates, seeds BENCH_DEVICES devices in one domain with generate_series, signs an admin up, listens
// (BENCH_PEOPLE of them, 1 by default) on a free port and tells the parent { port, username, usernames,
// password, seedMs } over IPC.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { DEFAULT_DOMAIN_SETTINGS, DEFAULT_POLICY } from "@cellfleet/contract";
import { sql } from "kysely";
import { buildApp } from "../apps/server/src/app";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import { openDatabase } from "../apps/server/src/platform/db/database";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
/** How many administrators of the domain to sign up (BENCH_PEOPLE), each with the same password. */
const PEOPLE = Math.max(1, Number(process.env.BENCH_PEOPLE ?? 1));
/** One router in this many has events (1 to 5); 1: every router, as in a fleet that ran for years. */
const EVENTS_EVERY = Number(process.env.BENCH_EVENTS_EVERY ?? 13);
const pgUrl = process.env.BENCH_PG_URL;
const pgliteDir = process.env.BENCH_PGLITE_DIR;

const database = pgUrl
  ? openDatabase({ kind: "postgres", url: pgUrl, maxConnections: Number(process.env.BENCH_POOL ?? 10) })
  : openDatabase({ kind: "pglite", dataDir: path.join(pgliteDir ?? "/tmp/cellfleet-bench-listing", "db") });
const { db } = database;
await migrateToLatest(db);

const domainId = randomUUID();
const policyId = randomUUID();
await db
  .insertInto("security_policies")
  .values({
    ...DEFAULT_POLICY,
    id: policyId,
    domain_id: null,
    is_default: true,
    forbidden_sequences: toJsonb(DEFAULT_POLICY.forbidden_sequences),
    forbidden_phrases: toJsonb(DEFAULT_POLICY.forbidden_phrases),
  })
  .onConflict((oc) => oc.column("is_default").where("is_default", "=", true).doNothing())
  .execute();
await db
  .insertInto("domains")
  .values({ id: domainId, name: `bench_${domainId.slice(0, 8)}`, settings: toJsonb(DEFAULT_DOMAIN_SETTINGS) })
  .execute();
const username = `bench_${domainId.slice(0, 8)}`;
const password = `Bench-${randomUUID()}`;
const passwordHash = await hashPassword(password);
const users = Array.from({ length: PEOPLE }, (_, i) => ({
  id: randomUUID(),
  domain_id: domainId,
  username: i === 0 ? username : `${username}_${i}`,
  role: 2,
  plugins: toJsonb([]),
  password_hash: passwordHash,
  password_changed_at: new Date(),
}));
await db.insertInto("users").values(users).execute();
const usernames = users.map((user) => user.username);
const userIds = users.map((user) => user.id);

// Realistic spread: 5% never reported, 70% online, 10% warning, 15% critical; ten regions, a few
// categories, seven models, twelve firmware versions, CSQ across 0..31 with some unknown.
const seedStart = performance.now();
await sql`
  insert into devices (id, domain_id, ident, description, tags, model, firmware, serial, last_contact,
    events_total, signal_csq, network_mode, has_backups, has_journals, create_time)
  select
    gen_random_uuid()::text,
    ${domainId},
    'BENCH' || lpad(g::text, 7, '0'),
    (array['Substation','Pump station','Gas meter','Bus depot','Warehouse','ATM','Billboard','Weather post'])[1 + g % 8] || ' ' || g,
    jsonb_build_array((array['moscow','spb','kazan','samara','omsk','perm','ufa','tula','sochi','tver'])[1 + (g / 7) % 10])
      || case when g % 3 = 0 then '["pumps"]'::jsonb when g % 3 = 1 then '["meters"]'::jsonb else '[]'::jsonb end
      || case when g % 20 = 0 then '["priority"]'::jsonb else '[]'::jsonb end,
    (array['RUT955','RUT240','RUTX11','RUTX50','TRB140','iRZ-RL22','iRZ-RU41'])[1 + (g * 7 / 5) % 7],
    'FW_' || (1 + g % 3) || '.' || (g % 4) || '.0',
    'SN' || (1000000 + g),
    case
      when g % 20 = 0 then null
      when g % 20 < 15 then now() - (random() * interval '14 minutes')
      when g % 20 < 17 then now() - interval '16 minutes' - (random() * interval '40 minutes')
      else now() - interval '61 minutes' - (random() * interval '30 days')
    end,
    case when g % ${sql.lit(EVENTS_EVERY)} = 0 then 1 + g % 5 else 0 end,
    case when g % 25 = 0 then null else (g * 13) % 32 end,
    (array['LTE','LTE','LTE','5G','3G','2G'])[1 + g % 6],
    g % 3 = 0,
    g % 4 = 0,
    now() - g * interval '1 minute'
  from generate_series(1, ${DEVICES}) as g
`.execute(db);
// Each admin has read one event of every other router with events (ADR 025: counts are per user).
await sql`insert into device_event_reads (user_id, device_id, read_count)
  select u.id, d.id, 1 from devices d cross join unnest(${userIds}::text[]) as u(id)
  where d.domain_id = ${domainId} and d.events_total > 0 and right(d.ident, 1) in ('0', '2', '4', '6', '8')
  `.execute(db);
// A table in steady state has been vacuumed (autovacuum would have): counts can read the index alone.
await sql`vacuum analyze devices`.execute(db);
await sql`vacuum analyze device_event_reads`.execute(db);
const seedMs = performance.now() - seedStart;

const config = { ...loadConfig({ LOG_LEVEL: "silent" }), loginRateLimit: 1_000_000 };
const app = await buildApp({ config, database, bus: createInProcessBus() });
await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;
process.send?.({ port, username, usernames, password, seedMs, engine: database.kind });

process.on("message", async (message) => {
  if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
  if (message === "memory") process.send?.({ memory: process.memoryUsage() });
  if (message === "stop") {
    await app.close();
    await database.close();
    process.exit(0);
  }
});
