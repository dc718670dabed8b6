import { randomUUID } from "node:crypto";
import type { Command } from "@cellfleet/contract";
import { QUIET_BEHAVIOUR, VirtualRouter } from "@cellfleet/simulator";
import { afterAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../platform/auth/passwords";
import { migrateToLatest } from "../../platform/db/migrate";
import { toJsonb } from "../../platform/db/schema";
import { exited, freePort, prepareChildStore, startServerProcess } from "../../test/child-server";
import { eventually, insertDevice, type TestDevice, uniqueIdent } from "../ingest/ingest.test-support";
import { runFirstStart } from "../setup/first-start";

// Restart-safety of delivery, for real: a command goes to 40 simulated routers, the server process is
// killed with SIGKILL while executions are at every step (queued, sent, running, finished), restarted
// on the same data, and every execution must still complete, each router having run it exactly once.

const ROUTERS = 40;
const PASSWORD = "Sigkill-Admin-Pass-1";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function call(base: string, url: string, body: object): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}

describe("command delivery survives SIGKILL", () => {
  it("kills the server mid-delivery, restarts it, and every router runs the command once", {
    timeout: 150_000,
  }, async () => {
    const store = await prepareChildStore("cmdkill");
    cleanups.push(store.drop);
    const seed = store.open();
    await migrateToLatest(seed.db);
    await runFirstStart(seed.db, {
      rootPassword: "cmdkill-root-password",
      now: () => new Date(),
      log: { warn() {} },
    });
    const demo = await seed.db
      .selectFrom("domains")
      .select("id")
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();
    const devices: TestDevice[] = [];
    for (let i = 0; i < ROUTERS; i += 1)
      devices.push(await insertDevice({ db: seed.db }, demo.id, { ident: uniqueIdent("K") }));
    await seed.db
      .insertInto("users")
      .values({
        id: randomUUID(),
        domain_id: demo.id,
        username: "killadmin",
        role: 2,
        plugins: toJsonb(["notification"]),
        password_hash: await hashPassword(PASSWORD),
        factory_password: false,
        password_changed_at: new Date(),
        create_time: new Date(),
      })
      .execute();
    await seed.close();

    const env = { ...store.env, PORT: String(await freePort()), MQTT_PORT: String(await freePort()) };
    const base = `http://127.0.0.1:${env.PORT}`;
    const first = startServerProcess(env);
    cleanups.push(async () => {
      first.kill("SIGKILL");
      await exited(first);
    });
    const routers = devices.map(
      (device, index) =>
        new VirtualRouter({
          ident: device.ident,
          key: device.key as string,
          url: `mqtt://127.0.0.1:${env.MQTT_PORT}`,
          autoTick: false,
          behaviour: QUIET_BEHAVIOUR,
          reconnectPeriodMs: 250,
          // Spread over 0.2-2 s, so the kill finds executions at every step.
          commandDelayMs: 200 + index * 45,
        }),
    );
    cleanups.push(async () => {
      await Promise.all(routers.map((router) => router.stop()));
    });
    await Promise.all(routers.map((router) => router.start()));
    await eventually(() => routers.every((router) => router.stats.connected), "routers connected", 40_000);

    let token = "";
    await eventually(
      async () => {
        const login = await call(base, "/api/login/", { username: "killadmin", password: PASSWORD }).catch(
          () => null,
        );
        token = (login?.json as { token?: string } | null)?.token ?? "";
        return token !== "";
      },
      "the first server's API",
      20_000,
    );
    const created = await call(base, "/api/command/new", {
      token,
      type: "shell",
      args: { script: "uptime" },
      targets: { all: true },
    });
    expect(created.status).toBe(200);
    const id = (created.json as Command)._id;
    // Kill once some routers finished and some have not.
    await eventually(
      () => routers.filter((router) => router.stats.commands > 0).length >= ROUTERS / 4,
      "a quarter running",
      30_000,
    );
    first.kill("SIGKILL");
    await exited(first);
    expect(first.signalCode).toBe("SIGKILL");

    const second = startServerProcess(env);
    cleanups.push(async () => {
      second.kill("SIGKILL");
      await exited(second);
    });
    let command: Command | null = null;
    await eventually(
      async () => {
        const answer = await call(base, `/api/command/${id}`, { token }).catch(() => null);
        command = answer?.status === 200 ? (answer.json as Command) : null;
        return command?.status === "completed";
      },
      "every execution completed after the restart",
      90_000,
    );
    expect(command).toMatchObject({ status: "completed", counts: { completed: ROUTERS } });
    // Redelivery is idempotent: every router ran it exactly once, repeats answered from memory.
    expect(routers.map((router) => router.stats.commands)).toEqual(routers.map(() => 1));
    second.kill("SIGTERM");
    await exited(second);
  });
});
