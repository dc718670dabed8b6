import { createHash } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import {
  DEVICE_FILE_STORAGES,
  type DeviceFilesFixture,
  keyOf,
  openDeviceFilesFixture,
  pathOf,
} from "../../test/device-file-fixtures";
import { buildDomain } from "../../test/factories";
import { buildFile } from "../../test/file-factories";
import { withQuery } from "../../test/transfer-fixtures";

// A router's side of files (docs/device-protocol.md 7) with the production hooks: what a command's
// `file` object lets it reach, and what its uploads become. On the local disk and on S3.

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe.each(DEVICE_FILE_STORAGES)("device transfers on $name", (backend) => {
  let f: DeviceFilesFixture;
  beforeAll(async () => {
    f = await openDeviceFilesFixture(backend);
  });
  afterAll(async () => {
    await f.close();
  });

  describe("uploads", () => {
    it("records a backup sent to its URL, attributed to the router, command and execution", async () => {
      const file = await f.prepareUpload("backup");
      expect(file).toMatchObject({
        method: "PUT",
        filename: expect.stringMatching(/^backup-RUT.+\.tar\.gz$/),
      });
      expect(file.url).toMatch(/^https:\/\/console\.example\.com\/api\/transfer\/[0-9a-f-]{36}\?device=/);
      expect(file.expires_at).toBe(f.t.clock.now().getTime() + 15 * 60_000);
      const body = Buffer.from("config backup of a RUT955\n".repeat(2000));
      const response = await f.put(file, body);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ size: body.length, sha256: sha256(body) });
      const row = await f.t.db
        .selectFrom("files")
        .selectAll()
        .where("id", "=", keyOf(file))
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        domain_id: f.domainId,
        device_id: f.device.id,
        file_type: "backup",
        status: "completed",
        command_id: "cmd-test",
        user_id: null,
        sha256: sha256(body),
      });
      expect(row.execution_id).toMatch(/^exec-/);
      const device = await f.t.db
        .selectFrom("devices")
        .select("has_backups")
        .where("id", "=", f.device.id)
        .executeTakeFirstOrThrow();
      expect(device.has_backups).toBe(true);
      await f.t.jobs.runUntilIdle();
      expect(f.uploaded.find((event) => event.fileId === keyOf(file))).toEqual({
        domainId: f.domainId,
        deviceId: f.device.id,
        fileId: keyOf(file),
        kind: "backup",
        commandId: "cmd-test",
        executionId: row.execution_id,
        size: body.length,
        sha256: sha256(body),
        status: "completed",
        isRepeat: false,
      });
    });

    it("takes one body per URL: a second answers FILE_EXISTS", async () => {
      const file = await f.prepareUpload("journal");
      expect((await f.put(file, Buffer.from("log line\n"))).statusCode).toBe(200);
      const again = await f.put(file, Buffer.from("another log\n"));
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe("FILE_EXISTS");
    });

    it("refuses a body over the command's limit with 413, stores nothing, and the URL is spent", async () => {
      const file = await f.prepareUpload("report", { maxBytes: 1000 });
      const refused = await f.put(file, Buffer.alloc(1001, 1));
      expect(refused.statusCode).toBe(413);
      expect(refused.json().code).toBe("BAD_REQUEST");
      expect(await f.t.storage.exists(keyOf(file))).toBe(false);
      const transfer = await f.t.db
        .selectFrom("file_transfers")
        .selectAll()
        .where("id", "=", keyOf(file))
        .executeTakeFirstOrThrow();
      expect(transfer.state).toBe("failed");
      const retried = await f.put(file, Buffer.alloc(10, 1));
      expect(retried.statusCode).toBe(403);
      expect(retried.json().code).toBe("ACCESS_DENIED");
      const exact = await f.prepareUpload("report", { maxBytes: 1000 });
      expect((await f.put(exact, Buffer.alloc(1000, 1))).statusCode).toBe(200);
    });

    it("refuses another router's URL, an upload over a stored file, and a URL for nothing", async () => {
      const file = await f.prepareUpload("backup");
      const signedForOther = f.ctx.transferUrls.sign({
        fileId: keyOf(file),
        deviceId: f.otherDevice.id,
        method: "PUT",
      });
      const other = await f.t.app.inject({ method: "PUT", url: signedForOther, payload: Buffer.from("x") });
      expect(other.statusCode).toBe(403);
      expect(other.json().code).toBe("ACCESS_DENIED");
      const firmware = await buildFile(f.t, f.domainId, {
        fileType: "firmware",
        bytes: Buffer.from("firmware"),
      });
      const overwrite = await f.t.app.inject({
        method: "PUT",
        url: f.ctx.transferUrls.sign({ fileId: firmware, deviceId: f.device.id, method: "PUT" }),
        payload: Buffer.from("evil"),
      });
      expect(overwrite.statusCode).toBe(403);
      const kept = await f.t.storage.get(firmware);
      expect(kept.size).toBe("firmware".length);
      const nothing = await f.t.app.inject({
        method: "PUT",
        url: f.ctx.transferUrls.sign({
          fileId: "00000000-0000-4000-8000-0000000000aa",
          deviceId: f.device.id,
          method: "PUT",
        }),
        payload: Buffer.from("x"),
      });
      expect(nothing.statusCode).toBe(404);
      expect(nothing.json().code).toBe("FILE_NOT_FOUND");
      // The slot was never taken: the right router still can.
      expect((await f.put(file, Buffer.from("backup"))).statusCode).toBe(200);
    });

    it("refuses an expired or altered URL", async () => {
      const file = await f.prepareUpload("journal");
      const tampered = await f.t.app.inject({
        method: "PUT",
        url: withQuery(pathOf(file.url), "device", f.otherDevice.id),
        payload: Buffer.from("x"),
      });
      expect(tampered.statusCode).toBe(401);
      expect(tampered.json().code).toBe("TOKEN_INVALID");
      f.t.clock.advanceMinutes(16);
      try {
        const late = await f.put(file, Buffer.from("x"));
        expect(late.statusCode).toBe(401);
        expect(late.json().code).toBe("TOKEN_HAS_EXPIRED");
      } finally {
        f.t.clock.advanceMinutes(-16);
      }
    });

    it("notes a backup identical to the router's newest one instead of storing it again", async () => {
      const device = await buildDevice(f.t, f.domainId);
      const same = Buffer.from("unchanged configuration\n".repeat(300));
      const upload = async (body: Buffer) => {
        const file = await f.prepareUpload("backup", { deviceId: device.id });
        expect((await f.put(file, body)).statusCode).toBe(200);
        return keyOf(file);
      };
      const first = await upload(same);
      const second = await upload(same);
      await f.t.jobs.runUntilIdle();
      const rows = await f.t.db.selectFrom("files").selectAll().where("device_id", "=", device.id).execute();
      expect(rows.map((row) => row.id)).toEqual([first]);
      expect(rows[0]?.repeats).toBe(1);
      expect(rows[0]?.repeat_time).not.toBeNull();
      expect(await f.t.storage.exists(second)).toBe(false);
      expect(
        f.uploaded.find((event) => event.executionId && event.isRepeat && event.deviceId === device.id),
      ).toMatchObject({
        fileId: first,
        isRepeat: true,
      });
      const transfer = await f.t.db
        .selectFrom("file_transfers")
        .selectAll()
        .where("id", "=", second)
        .executeTakeFirstOrThrow();
      expect(transfer).toMatchObject({ state: "completed", file_id: first });
      // A changed backup is stored, and the one after it is compared with it, not the first.
      const third = await upload(Buffer.from("changed configuration\n"));
      expect(await upload(same)).not.toBe(first);
      expect(
        (await f.t.db.selectFrom("files").select("id").where("device_id", "=", device.id).execute()).map(
          (r) => r.id,
        ),
      ).toContain(third);
    });

    it("releases the slot of an upload cut off mid-body, so the router can send it again", async () => {
      {
        const port = Number(new URL(f.origin).port);
        const file = await f.prepareUpload("journal");
        await new Promise<void>((resolve) => {
          const request = http.request({
            host: "127.0.0.1",
            port,
            method: "PUT",
            path: pathOf(file.url),
            headers: { "content-type": "application/octet-stream", "content-length": 200_000 },
          });
          request.on("error", () => resolve());
          request.write(Buffer.alloc(100_000, 7), () =>
            setTimeout(() => {
              request.destroy();
              resolve();
            }, 100),
          );
        });
        const state = async () =>
          (
            await f.t.db
              .selectFrom("file_transfers")
              .select("state")
              .where("id", "=", keyOf(file))
              .executeTakeFirstOrThrow()
          ).state;
        for (let i = 0; i < 50 && (await state()) !== "expected"; i++)
          await new Promise((r) => setTimeout(r, 20));
        expect(await state()).toBe("expected");
        expect(await f.t.storage.exists(keyOf(file))).toBe(false);
        const body = Buffer.alloc(200_000, 7);
        expect((await f.put(file, body)).statusCode).toBe(200);
      }
    });
  });

  describe("downloads", () => {
    it("gives a router its domain's file with size and SHA-256, resumable with Range", async () => {
      const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
      const firmware = await buildFile(f.t, f.domainId, {
        fileType: "firmware",
        filename: "RUT9.bin",
        bytes,
      });
      const file = await f.prepareDownload({ fileId: firmware });
      expect(file).toMatchObject({ method: "GET", filename: "RUT9.bin", size: 5000, sha256: sha256(bytes) });
      const whole = await f.t.app.inject({ method: "GET", url: pathOf(file.url) });
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      const rest = await f.t.app.inject({
        method: "GET",
        url: pathOf(file.url),
        headers: { range: "bytes=3000-" },
      });
      expect(rest.statusCode).toBe(206);
      expect(rest.rawPayload.equals(bytes.subarray(3000))).toBe(true);
    });

    it("refuses COMMAND_FILE_NOT_FOUND for another domain's file and DEVICE_NOT_FOUND for its router", async () => {
      const elsewhere = (await buildDomain(f.t)).id;
      const theirs = await buildFile(f.t, elsewhere, { fileType: "firmware" });
      await expect(f.prepareDownload({ fileId: theirs })).rejects.toMatchObject({
        code: "COMMAND_FILE_NOT_FOUND",
      });
      const theirDevice = await buildDevice(f.t, elsewhere);
      const ours = await buildFile(f.t, f.domainId, { fileType: "firmware" });
      await expect(f.prepareDownload({ fileId: ours, deviceId: theirDevice.id })).rejects.toMatchObject({
        code: "DEVICE_NOT_FOUND",
      });
      await expect(
        f.prepareDownload({ fileId: "00000000-0000-4000-8000-0000000000bb" }),
      ).rejects.toMatchObject({
        code: "COMMAND_FILE_NOT_FOUND",
      });
    });

    it("refuses a URL signed for another domain's router, and an upload slot as a download", async () => {
      const elsewhere = (await buildDomain(f.t)).id;
      const stranger = await buildDevice(f.t, elsewhere);
      const ours = await buildFile(f.t, f.domainId, { fileType: "package" });
      const foreign = await f.t.app.inject({
        method: "GET",
        url: f.ctx.transferUrls.sign({ fileId: ours, deviceId: stranger.id, method: "GET" }),
      });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().code).toBe("ACCESS_DENIED");
      const slot = await f.prepareUpload("backup");
      const early = await f.t.app.inject({
        method: "GET",
        url: f.ctx.transferUrls.sign({ fileId: keyOf(slot), deviceId: f.device.id, method: "GET" }),
      });
      expect(early.statusCode).toBe(404);
      // A file deleted after its URL was given is gone for the router too.
      const file = await f.prepareDownload({ fileId: ours });
      await f.t.db.deleteFrom("files").where("id", "=", ours).execute();
      expect((await f.t.app.inject({ method: "GET", url: pathOf(file.url) })).json().code).toBe(
        "FILE_NOT_FOUND",
      );
    });
  });
});
