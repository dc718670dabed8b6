// A schedule rule firing for 10,000 routers (issue 14): the time to create its backup command, one
// execution per router and the pump jobs, in the firing's one transaction. Two ways: the firing
// called directly (the transaction alone), and through the app's dispatcher (from the occurrence's
// run_at until the command is committed: claim, transaction, next occurrence queued). The real app
// (`buildApp`), a fresh database; 12,000 routers, 10,000 of them carrying the rule's tag, none
// connected (delivery is the commands benchmark's). Figures and how to read them: bench/README.md.

import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { buildApp } from "../apps/server/src/app";
import { enqueueFiring, fireOccurrence } from "../apps/server/src/modules/schedules/schedules.jobs";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import type { AppContext } from "../apps/server/src/platform/context";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";
import { openBenchStore } from "./bench-store";

const ROUTERS = Number(process.env.BENCH_ROUTERS ?? 10_000);
const UNTAGGED = Math.round(ROUTERS / 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ENGINE = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "pglite";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const { database, drop } = await openBenchStore(ENGINE, "schedbench");
  try {
    const db = database.db;
    await migrateToLatest(db);
    const domainId = randomUUID();
    await db.insertInto("domains").values({ id: domainId, name: "schedbench" }).execute();
    const rows = Array.from({ length: ROUTERS + UNTAGGED }, (_, i) => ({
      id: randomUUID(),
      domain_id: domainId,
      ident: `SCH${String(i + 1).padStart(6, "0")}`,
      aes_key: null,
      tags: toJsonb(i < ROUTERS ? ["nightly", `rack-${i % 40}`] : ["spare"]),
      meta: toJsonb({}),
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto("devices")
        .values(rows.slice(i, i + 1000))
        .execute();

    let ctx: AppContext | undefined;
    const app = await buildApp({
      config: { ...loadConfig({}), loginRateLimit: 1000 },
      database,
      bus: createInProcessBus(),
      jobTimings: { pollMs: 50 },
      extraApiRoutes: [
        async (_api, { ctx: given }) => {
          ctx = given;
        },
      ],
    });
    await app.ready();
    const context = ctx as AppContext;

    /** A rule waiting for an occurrence `inMs` from now; answers its id and occurrence. */
    const newRule = async (inMs: number) => {
      const id = randomUUID();
      const occurrence = new Date(Date.now() + inMs);
      await db
        .insertInto("schedule_rules")
        .values({
          id,
          domain_id: domainId,
          type: "backup",
          name: `Bench ${id.slice(0, 6)}`,
          active: true,
          regular: toJsonb({ basic: "daily", options: { weeks: [], days: [] }, time: "03:00" }),
          active_for: "group",
          tags: toJsonb(["nightly"]),
          copies: 10,
          next_run: occurrence,
          create_time: new Date(),
          update_time: new Date(),
        })
        .execute();
      return { id, occurrence };
    };

    const direct: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const rule = await newRule(-1);
      const t0 = performance.now();
      const outcome = await fireOccurrence(context, domainId, rule.id, rule.occurrence);
      direct.push(performance.now() - t0);
      if (outcome?.targets !== ROUTERS) throw new Error(`fired for ${outcome?.targets} routers`);
    }

    app.jobDispatcher.start();
    const dispatched: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const rule = await newRule(1000);
      await app.jobs.transaction((trx) => enqueueFiring(context, trx, domainId, rule.id, rule.occurrence));
      for (;;) {
        const command = await db
          .selectFrom("commands")
          .select("total")
          .where("schedule_rule_id", "=", rule.id)
          .executeTakeFirst();
        if (command) {
          dispatched.push(Date.now() - rule.occurrence.getTime());
          if (command.total !== ROUTERS) throw new Error(`command for ${command.total} routers`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    await app.close();
    console.log(
      `${ENGINE}: ${ROUTERS} tagged of ${ROUTERS + UNTAGGED} routers; load ${loadavg()[0]?.toFixed(2)}\n` +
        `firing transaction: ${direct.map((ms) => ms.toFixed(0)).join(", ")} ms (median ${median(direct).toFixed(0)})\n` +
        `occurrence → command committed through the dispatcher: ${dispatched.join(", ")} ms (median ${median(dispatched)})`,
    );
  } finally {
    await drop();
  }
}

await main();
