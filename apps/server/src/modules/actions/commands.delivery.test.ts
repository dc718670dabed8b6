import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../ingest/ingest.test-support";
import { type ActionsFixture, isCommandFinished, openActionsFixture } from "./actions.test-support";
import { executionsRepo } from "./executions.repo";

// Commands end to end: the console, its embedded broker and simulated routers over real MQTT and HTTP.

describe("commands delivered to simulated routers", () => {
  let f: ActionsFixture;
  let admin: { id: string; token: string };
  beforeAll(async () => {
    f = await openActionsFixture();
    admin = await f.person("admin");
  }, 60_000);
  afterAll(async () => {
    await f.close();
  }, 60_000);

  const reports = (commandId: string) => f.reports(admin.token, commandId);

  it("reboots routers by tag: each acknowledges, completes, reconnects with its uptime reset", async () => {
    const devices = [await f.device(["rack1"]), await f.device(["rack1"]), await f.device(["other"])];
    const routers = await Promise.all(devices.map((device) => f.router(device)));
    const created = await f.post(admin.token, "/api/command/new", {
      type: "reboot",
      targets: { tags: ["rack1"] },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ status: "in_progress", total: 2, needs_approval: false });
    const done = await f.waitForCommand(admin.token, created.json()._id, isCommandFinished, "the reboot");
    expect(done).toMatchObject({ status: "completed", counts: { completed: 2 } });
    await eventually(() => routers[0].stats.reboots === 1 && routers[1].stats.reboots === 1, "both rebooted");
    await eventually(() => routers[0].stats.connected && routers[0].stats.connects === 2, "reconnected");
    expect(routers[2].stats.reboots).toBe(0);
    const rows = await reports(created.json()._id);
    expect(rows.map((row) => row.status)).toEqual(["completed", "completed"]);
    expect(rows.every((row) => row.code === 0 && row.result === "success" && row.attempts >= 1)).toBe(true);
  });

  it("runs a shell script and stores its output; a custom type runs as shell", async () => {
    const device = await f.device();
    await f.router(device);
    const shell = await f.post(admin.token, "/api/command/new", {
      type: "shell",
      args: { script: "uptime" },
      targets: { devices: [device.id] },
    });
    expect(shell.statusCode, shell.body).toBe(200);
    await f.waitForCommand(admin.token, shell.json()._id, isCommandFinished, "the shell command");
    const [row] = await reports(shell.json()._id);
    expect(row).toMatchObject({ status: "completed", code: 0 });
    expect(row.output).toMatch(/up \d+ days/);

    const type = await f.post(admin.token, "/api/command_type", { type: "Who am I", command: "hostname" });
    expect(type.statusCode, type.body).toBe(200);
    const custom = await f.post(admin.token, "/api/command/new", {
      type: "Who am I",
      targets: { devices: [device.id] },
    });
    expect(custom.statusCode, custom.body).toBe(200);
    expect(custom.json().type).toBe("Who am I");
    expect((await f.waitForCommand(admin.token, custom.json()._id, isCommandFinished, "custom")).status).toBe(
      "completed",
    );
    const types = await f.post(admin.token, "/api/command_types");
    expect(types.json().quick.slice(0, 3)).toEqual(expect.arrayContaining(["Who am I", "shell", "reboot"]));
    const system = await f.t.app.inject({
      method: "DELETE",
      url: "/api/command_type/reboot",
      headers: { token: admin.token },
    });
    expect(system.json().code).toBe("SYSTEM_COMMAND_TYPE");
  });

  it("takes a backup: the router uploads it through the signed URL and the execution names the file", async () => {
    const device = await f.device();
    await f.router(device);
    const created = await f.post(admin.token, "/api/command/new", {
      type: "backup",
      targets: { devices: [device.id] },
    });
    expect(created.statusCode, created.body).toBe(200);
    await f.waitForCommand(admin.token, created.json()._id, isCommandFinished, "the backup");
    await eventually(async () => (await reports(created.json()._id))[0].file_id !== null, "the file noted");
    const [row] = await reports(created.json()._id);
    const file = await f.t.db
      .selectFrom("files")
      .selectAll()
      .where("id", "=", row.file_id)
      .executeTakeFirstOrThrow();
    expect(file).toMatchObject({ file_type: "backup", device_id: device.id, status: "completed" });
  });

  it("queues for an offline router and delivers when it connects; one at a time, in order", async () => {
    const device = await f.device();
    const first = await f.post(admin.token, "/api/command/new", {
      type: "shell",
      args: { script: "echo one" },
      targets: { devices: [device.id] },
    });
    const second = await f.post(admin.token, "/api/command/new", {
      type: "shell",
      args: { script: "echo two" },
      targets: { devices: [device.id] },
    });
    await f.t.jobs.runUntilIdle();
    const [waiting] = await reports(first.json()._id);
    expect(waiting).toMatchObject({ status: "queued", attempts: 0, result: "not_sent" });
    const router = await f.router(device);
    const seen: string[] = [];
    router.on("command", (command) => seen.push(command.id));
    await f.waitForCommand(admin.token, second.json()._id, isCommandFinished, "the second command");
    expect((await reports(first.json()._id))[0].status).toBe("completed");
    const [a, b] = [(await reports(first.json()._id))[0], (await reports(second.json()._id))[0]];
    expect(seen.indexOf(a._id)).toBeLessThan(seen.lastIndexOf(b._id));
    expect(a.finish_time).toBeLessThanOrEqual(b.finish_time as number);
  });

  it("claims a head's publish once when two pumps of its router read it at once", async () => {
    const device = await f.device();
    const created = await f.post(admin.token, "/api/command/new", {
      type: "shell",
      args: { script: "echo once" },
      targets: { devices: [device.id] },
    });
    expect(created.statusCode, created.body).toBe(200);
    await f.t.jobs.runUntilIdle();
    const repo = executionsRepo(f.t.db);
    const [head] = await repo.findHeadsAcrossDomains([device.id]);
    expect(head).toMatchObject({ status: "queued", attempts: 0, last_publish_time: null });
    // Both pumps read the head unpublished; only one may publish it.
    const now = new Date();
    const claims = await Promise.all([
      repo.claimPublishAcrossDomains([{ id: head.id, seen: head.last_publish_time }], now),
      repo.claimPublishAcrossDomains([{ id: head.id, seen: head.last_publish_time }], now),
    ]);
    expect(claims.map((ids) => ids.length).sort()).toEqual([0, 1]);
    // A pump that read it after that publish (a reconnect re-sends it) claims it again.
    const later = new Date(now.getTime() + 1000);
    expect(await repo.claimPublishAcrossDomains([{ id: head.id, seen: now }], later)).toEqual([head.id]);
    const [row] = await reports(created.json()._id);
    expect(row.attempts).toBe(2);
  });

  it("refuses another domain's command and report ids as not found", async () => {
    const other = await openOtherDomainAdmin(f);
    const device = await f.device();
    const created = await f.post(admin.token, "/api/command/new", {
      type: "reboot",
      targets: { devices: [device.id] },
      delayed_until: Date.now() + 3_600_000,
    });
    expect(created.json().status).toBe("delayed");
    const id = created.json()._id;
    for (const url of [`/api/command/${id}`, `/api/command/${id}/cancel`, `/api/command/${id}/approve`]) {
      const response = await f.post(other, url);
      expect(response.json().code, url).toBe("COMMAND_NOT_FOUND");
    }
    const [row] = await reports(id);
    expect((await f.post(other, `/api/report/${device.id}/${row._id}`)).json().code).toBe("REPORT_NOT_FOUND");
    const foreign = await f.post(other, "/api/command/new", {
      type: "reboot",
      targets: { devices: [device.id] },
    });
    expect(foreign.json().code).toBe("DEVICE_NOT_FOUND");
    const cancelled = await f.post(admin.token, `/api/command/${id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: "cancelled", counts: { cancelled: 1 } });
  });

  it("answers the codes of spec section 8 for bad commands", async () => {
    const device = await f.device();
    const cases: Array<[unknown, string]> = [
      [{ targets: { devices: [device.id] } }, "TYPE_NOT_SPECIFIED"],
      [{ type: "reboot" }, "TARGETS_NOT_SPECIFIED"],
      [{ type: "reboot", targets: { tags: ["nobody-has"] } }, "TARGETS_NOT_SPECIFIED"],
      [{ type: "teleport", targets: { devices: [device.id] } }, "UNKNOWN_COMMAND_TYPE"],
      [{ type: "shell", targets: { devices: [device.id] } }, "COMMAND_TEMPLATE_MISSING"],
      [{ type: "fw_update", targets: { devices: [device.id] } }, "COMMAND_FILE_NOT_FOUND"],
    ];
    for (const [body, code] of cases) {
      const response = await f.post(admin.token, "/api/command/new", body);
      expect(response.json().code, JSON.stringify(body)).toBe(code);
    }
    expect((await f.post(admin.token, "/api/command/nope")).json().code).toBe("COMMAND_NOT_FOUND");
  });
});

async function openOtherDomainAdmin(f: ActionsFixture): Promise<string> {
  const { buildUser, signIn } = await import("../../test/factories");
  const user = await buildUser(f.t, { role: 2 });
  return signIn(f.t.app, user);
}
