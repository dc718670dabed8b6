// One command to 10,000 connected routers (issue 13): a junior assistant asks for a shell command to
// all routers of a domain, an admin approves it, and the clock runs from the approval until every
// router has acknowledged it ("sent": the router said `accepted`) and until every result is stored.
// The real app (routes, pump jobs, dispatcher), the embedded broker and ingest with the actions hook,
// 10,000 simulated routers in a child process (the simulator CLI). Figures and how to read them: bench/README.md.

import { loadavg } from "node:os";
import { startFleetConsole } from "./fleet-console";
import { BackendSampler, describeWaits } from "./pg-waits";

const ROUTERS = Number(process.env.BENCH_ROUTERS ?? 10_000);
/** Execution statuses reached only through the router's answer (contract commands/machine.ts). */
const ACKNOWLEDGED = ["sent", "in_progress", "completed", "failed", "timed_out"] as const;
const ENGINE = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "pglite";

async function main(): Promise<void> {
  const fleet = await startFleetConsole({
    engine: ENGINE,
    name: "cmdbench",
    prefix: "CMD",
    routers: ROUTERS,
    people: { junior: { role: 3, is_junior: true }, admin: { role: 2, is_junior: false } },
    connectRate: Number(process.env.BENCH_CONNECT_RATE ?? 500),
  });
  try {
    const { app, db } = fleet;
    const connectedMs = await fleet.connected();
    const login = fleet.login;
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
    // The database's backends from the approval until every result is stored: every batch of the
    // routers' statuses takes ingest's transaction path (ingest.batch.ts), where Node's work between
    // its statements shows as idle in transaction.
    const sampler = fleet.databaseUrl ? await BackendSampler.start(fleet.databaseUrl) : null;
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
    const waits = await sampler?.stop();
    const command = (
      await app.inject({ method: "POST", url: `/api/command/${id}`, headers: { token: admin } })
    ).json();
    console.log(
      `${ENGINE}: ${ROUTERS} routers connected in ${(connectedMs / 1000).toFixed(1)} s; load before ${load}\n` +
        `approve call ${approveMs} ms; every router acknowledged (sent) ${(deliveredMs / 1000).toFixed(2)} s after approval; ` +
        `every result stored ${(storedMs / 1000).toFixed(2)} s; command ${command.status} ${JSON.stringify(command.counts)}` +
        (waits ? `\n${describeWaits(waits)}` : ""),
    );
  } finally {
    await fleet.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
