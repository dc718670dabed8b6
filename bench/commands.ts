// One command to 10,000 connected routers (issue 13): a junior assistant asks for a shell command to
// all routers of a domain, an admin approves it, and the clock runs from the approval until every
// router has acknowledged it ("sent": the router said `accepted`) and until every result is stored.
// The real app (routes, pump jobs, dispatcher), the embedded broker and ingest with the actions hook,
// 10,000 simulated routers in a child process (the simulator CLI). Figures and how to read them: bench/README.md.

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { buildApp } from "../apps/server/src/app";
import { startDeviceIngest } from "../apps/server/src/modules/ingest/ingest.runtime";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";
import { DEFAULT_FLEET_SECRET, deriveFleetKey, fleetIdent } from "../apps/simulator/src/index";
import { openBenchStore } from "./bench-store";

const ROUTERS = Number(process.env.BENCH_ROUTERS ?? 10_000);
/** Execution statuses reached only through the router's answer (contract commands/machine.ts). */
const ACKNOWLEDGED = ["sent", "in_progress", "completed", "failed", "timed_out"] as const;
const ENGINE = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "pglite";
const quiet = { info() {}, warn() {}, error() {} };

async function main(): Promise<void> {
  const { database, drop } = await openBenchStore(ENGINE, "cmdbench");
  try {
    const db = database.db;
    await migrateToLatest(db);
    const domainId = randomUUID();
    await db.insertInto("domains").values({ id: domainId, name: "cmdbench" }).execute();
    const rows = [];
    for (let i = 1; i <= ROUTERS; i += 1) {
      const ident = fleetIdent("CMD", i);
      rows.push({
        id: randomUUID(),
        domain_id: domainId,
        ident,
        aes_key: await deriveFleetKey(DEFAULT_FLEET_SECRET, ident),
        tags: toJsonb([]),
        meta: toJsonb({}),
      });
    }
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto("devices")
        .values(rows.slice(i, i + 1000))
        .execute();
    const people = { junior: { role: 3, is_junior: true }, admin: { role: 2, is_junior: false } } as const;
    const hash = await hashPassword("Bench-Pass-1");
    for (const [username, person] of Object.entries(people)) {
      await db
        .insertInto("users")
        .values({
          id: randomUUID(),
          domain_id: domainId,
          username,
          role: person.role,
          is_junior: person.is_junior,
          plugins: toJsonb(["notification"]),
          password_hash: hash,
          factory_password: false,
          password_changed_at: new Date(),
          create_time: new Date(),
        })
        .execute();
    }

    const config = { ...loadConfig({}), loginRateLimit: 1000 };
    const bus = createInProcessBus();
    const app = await buildApp({ config, database, bus, jobTimings: { pollMs: 200 } });
    await app.ready();
    app.jobDispatcher.start();
    const ingest = await startDeviceIngest({
      db,
      bus,
      now: () => new Date(),
      log: quiet,
      mqttUrl: undefined,
      mqttPort: 0,
      host: "127.0.0.1",
      jobs: app.jobs,
      commandStatuses: app.hooks.get("ingest.commandStatuses"),
    });
    app.deviceLink.attach(ingest.gateway);
    // The fleet runs in a process of its own (the simulator's CLI), so routers and server do not
    // share one event loop; a router counts as connected once its hello is stored.
    const connectStart = Date.now();
    const simulator = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "../apps/simulator/src/cli.ts",
        "--devices",
        String(ROUTERS),
        "--url",
        ingest.gateway.url,
        "--prefix",
        "CMD",
        "--interval",
        "3600",
        "--events",
        "none",
        "--connect-rate",
        process.env.BENCH_CONNECT_RATE ?? "500",
        "--inflight-total",
        "20000",
        "--summary",
        "0",
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    const connected = async () =>
      Number(
        (
          await db
            .selectFrom("devices")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("domain_id", "=", domainId)
            .where("last_contact", "is not", null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let tick = 0; (await connected()) < ROUTERS; tick += 1) {
      if (tick % 10 === 0) console.log(`connected ${await connected()} of ${ROUTERS}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // Let the hellos settle so the measurement is the command's alone.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const connectedMs = Date.now() - connectStart;

    const login = async (username: string) =>
      (
        await app.inject({
          method: "POST",
          url: "/api/login/",
          payload: { username, password: "Bench-Pass-1" },
        })
      ).json().token as string;
    const junior = await login("junior");
    const admin = await login("admin");
    const created = await app.inject({
      method: "POST",
      url: "/api/command/new",
      headers: { token: junior },
      payload: { type: "shell", args: { script: "uptime" }, targets: { all: true } },
    });
    if (created.statusCode !== 200) throw new Error(created.body);
    const id = created.json()._id as string;
    const load = loadavg()[0]?.toFixed(2);
    const t0 = Date.now();
    const approved = await app.inject({
      method: "POST",
      url: `/api/command/${id}/approve`,
      headers: { token: admin },
    });
    if (approved.statusCode !== 200) throw new Error(approved.body);
    const approveMs = Date.now() - t0;
    let deliveredMs = 0;
    let storedMs = 0;
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      const counts = await db
        .selectFrom("command_executions")
        .select(["status", (eb) => eb.fn.countAll<string>().as("n")])
        .where("command_id", "=", id)
        .groupBy("status")
        .execute();
      const by = Object.fromEntries(counts.map((row) => [row.status, Number(row.n)]));
      // Acknowledged: what only a router's own answer moves an execution to (its `accepted` makes a
      // queued one `sent`, then running, finished, or timed out after that), not the publish: an
      // execution delayed, expired or cancelled before it reached the router is not acknowledged.
      const acknowledged = ACKNOWLEDGED.reduce((sum, status) => sum + (by[status] ?? 0), 0);
      if (deliveredMs === 0 && acknowledged === ROUTERS) deliveredMs = Date.now() - t0;
      if ((by.completed ?? 0) + (by.failed ?? 0) === ROUTERS) {
        storedMs = Date.now() - t0;
        break;
      }
      if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(by)}`);
      if (Math.random() < 0.05)
        console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(by)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const command = (
      await app.inject({ method: "POST", url: `/api/command/${id}`, headers: { token: admin } })
    ).json();
    console.log(
      `${ENGINE}: ${ROUTERS} routers connected in ${(connectedMs / 1000).toFixed(1)} s; load before ${load}\n` +
        `approve call ${approveMs} ms; every router acknowledged (sent) ${(deliveredMs / 1000).toFixed(2)} s after approval; ` +
        `every result stored ${(storedMs / 1000).toFixed(2)} s; command ${command.status} ${JSON.stringify(command.counts)}`,
    );
    simulator.kill("SIGTERM");
    app.deviceLink.detach();
    await ingest.close();
    await app.close();
    await bus.close();
  } finally {
    await drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
