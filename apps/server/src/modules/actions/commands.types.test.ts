import { createHash } from "node:crypto";
import { COMMAND_CODES } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFile } from "../../test/file-factories";
import { eventually } from "../ingest/ingest.test-support";
import { type ActionsFixture, isCommandFinished, openActionsFixture } from "./actions.test-support";

// Every built-in type that moves a file or restarts the router, end to end: the console, its
// embedded broker and simulated routers over real MQTT, files over real HTTP through signed URLs.
// (reboot, shell, custom types and backup are in commands.delivery.test.ts.)

describe("every command type delivered to simulated routers", { timeout: 30_000 }, () => {
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

  /** Sends one command to one router and answers its finished command and its one report. */
  async function run(deviceId: string, body: Record<string, unknown>) {
    const created = await f.post(admin.token, "/api/command/new", {
      ...body,
      targets: { devices: [deviceId] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const command = await f.waitForCommand(
      admin.token,
      created.json()._id,
      isCommandFinished,
      String(body.type),
    );
    const [report] = await reports(command._id);
    return { command, report };
  }

  async function firmwareOf(deviceId: string) {
    const row = await f.t.db
      .selectFrom("devices")
      .select("firmware")
      .where("id", "=", deviceId)
      .executeTakeFirstOrThrow();
    return row.firmware;
  }

  function sha256(bytes: Buffer) {
    return createHash("sha256").update(bytes).digest("hex");
  }

  it("updates firmware: downloads by the signed URL, checks SHA-256, reboots into the new version", async () => {
    const device = await f.device();
    const router = await f.router(device);
    await eventually(async () => (await firmwareOf(device.id)) !== null, "the hello's firmware stored");
    const before = await firmwareOf(device.id);
    const image = Buffer.alloc(256 * 1024, 7);
    const fileId = await buildFile(f.t, f.domainId, {
      fileType: "firmware",
      filename: "RUT9_R_00.07.99.bin",
      bytes: image,
    });
    const { command, report } = await run(device.id, { type: "fw_update", file_id: fileId });
    expect(command).toMatchObject({ status: "completed", counts: { completed: 1 } });
    expect(report).toMatchObject({ status: "completed", code: 0, result: "success" });
    expect(report.output).toContain(`downloaded ${image.length} bytes`);
    expect(report.output).toContain(sha256(image));
    await eventually(() => router.stats.reboots === 1 && router.stats.connects === 2, "rebooted, back");
    await eventually(async () => (await firmwareOf(device.id)) === "RUT9_R_00.07.99", "the new version");
    expect(before).not.toBe("RUT9_R_00.07.99");
  });

  it("fails a firmware update whose checksum does not match, without rebooting", async () => {
    const device = await f.device();
    const router = await f.router(device);
    await eventually(async () => (await firmwareOf(device.id)) !== null, "the hello's firmware stored");
    const before = await firmwareOf(device.id);
    const fileId = await buildFile(f.t, f.domainId, {
      fileType: "firmware",
      filename: "RUT9_R_00.07.98.bin",
      bytes: Buffer.alloc(64 * 1024, 3),
    });
    // The stored image is not the one its record describes (damaged in storage, or tampered with).
    await f.t.db
      .updateTable("files")
      .set({ sha256: "0".repeat(64) })
      .where("id", "=", fileId)
      .execute();
    const { command, report } = await run(device.id, { type: "fw_update", file_id: fileId });
    expect(command).toMatchObject({ status: "failed", counts: { failed: 1 } });
    expect(report).toMatchObject({ status: "failed", code: COMMAND_CODES.transferFailed, result: "error" });
    expect(report.output).toMatch(/SHA-256 mismatch/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(router.stats.reboots).toBe(0);
    expect(await firmwareOf(device.id)).toBe(before);
  });

  it("downloads a file and installs a package, each checked against its SHA-256", async () => {
    const device = await f.device();
    const router = await f.router(device);
    const heard: Array<{ type: string; sha256?: string }> = [];
    router.on("command", (message) => heard.push({ type: message.type, sha256: message.file?.sha256 }));
    const common = Buffer.from("#!/bin/sh\necho hello\n".repeat(200));
    const pkg = Buffer.alloc(40 * 1024, 9);
    const commonId = await buildFile(f.t, f.domainId, {
      fileType: "file",
      filename: "hello.sh",
      bytes: common,
    });
    const pkgId = await buildFile(f.t, f.domainId, {
      fileType: "package",
      filename: "tcpdump.ipk",
      bytes: pkg,
    });
    for (const [type, fileId, bytes] of [
      ["download", commonId, common],
      ["pkg_install", pkgId, pkg],
    ] as const) {
      const { command, report } = await run(device.id, { type, file_id: fileId });
      expect(command.status, type).toBe("completed");
      expect(report).toMatchObject({ status: "completed", code: 0 });
      expect(report.output).toContain(`downloaded ${bytes.length} bytes`);
      expect(heard.find((message) => message.type === type)?.sha256).toBe(sha256(bytes));
    }
    expect(router.stats.reboots).toBe(0);
  });

  it("restores a backup the router uploaded earlier, downloading it by its signed URL", async () => {
    const device = await f.device();
    await f.router(device);
    const backup = await run(device.id, { type: "backup" });
    expect(backup.command.status).toBe("completed");
    await eventually(async () => (await reports(backup.command._id))[0].file_id !== null, "the backup noted");
    const [{ file_id: backupId }] = await reports(backup.command._id);
    const stored = await f.t.db
      .selectFrom("files")
      .select(["size", "sha256"])
      .where("id", "=", backupId)
      .executeTakeFirstOrThrow();
    const { command, report } = await run(device.id, { type: "restore", file_id: backupId });
    expect(command).toMatchObject({ status: "completed", counts: { completed: 1 } });
    expect(report.output).toContain(`downloaded ${Number(stored.size)} bytes`);
    expect(report.output).toContain(stored.sha256);
  });

  it("resets a router to factory defaults: it completes, reboots and says hello again", async () => {
    const device = await f.device();
    const router = await f.router(device);
    const { command, report } = await run(device.id, { type: "factory_reset" });
    expect(command.status).toBe("completed");
    expect(report).toMatchObject({ status: "completed", code: 0 });
    expect(report.output).toMatch(/factory defaults/);
    await eventually(() => router.stats.reboots === 1 && router.stats.connects === 2, "rebooted, back");
  });

  it("uploads the journal: a file of the router, named on the report, and the command completed", async () => {
    const device = await f.device();
    await f.router(device);
    const { command, report } = await run(device.id, { type: "journal" });
    // Shifted status by status as the router's reports arrived: nothing left in queued or sent.
    expect(command).toMatchObject({ status: "completed", total: 1 });
    expect(command.counts).toEqual({ completed: 1 });
    expect(report).toMatchObject({ status: "completed", code: 0 });
    await eventually(async () => (await reports(command._id))[0].file_id !== null, "the journal noted");
    const [row] = await reports(command._id);
    const file = await f.t.db
      .selectFrom("files")
      .selectAll()
      .where("id", "=", row.file_id)
      .executeTakeFirstOrThrow();
    expect(file).toMatchObject({ file_type: "journal", device_id: device.id, status: "completed" });
    expect(Number(file.size)).toBeGreaterThan(100 * 1024);
    expect((await f.t.storage.stat(file.id))?.size).toBe(Number(file.size));
  });
});
