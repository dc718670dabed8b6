import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildFile, postUpload } from "../../test/file-factories";
import { MULTIPART_CONTENT_TYPE, multipartBody } from "../../test/multipart";
import type { TestApp } from "../../test/test-app";
import { contentDisposition } from "./files.routes";
import { createFilesFixture, FIRMWARE, listFiles } from "./files-routes.test-support";

// Common files through the API (spec sections 5 and 7): who may do what, every refusal with its
// code, and the happy path from upload to download, rename and delete.

let t: TestApp;
let domainId: string;
let admin: string;
let helper: string;
let operator: string;
let stranger: string;

const firmware = FIRMWARE;

beforeAll(async () => {
  ({ t, domainId, admin, helper, operator, stranger } = await createFilesFixture());
});
afterAll(async () => {
  await t.close();
});

const list = (token: string, body: object | null = null) => listFiles(t, token, body);

describe("upload", () => {
  it("takes a firmware, lists it, and streams it back under its name with Range", async () => {
    const response = await postUpload(t, "/api/file/firmware", admin, {
      filename: "RUT9_R_00.07.06.bin",
      bytes: firmware,
    });
    expect(response.statusCode, response.body).toBe(200);
    const file = response.json();
    expect(file).toMatchObject({
      filename: "RUT9_R_00.07.06.bin",
      file_type: "firmware",
      size: firmware.length,
      sha256: createHash("sha256").update(firmware).digest("hex"),
      status: "completed",
      metadata: { device_id: null },
    });
    expect(file.metadata.user_name).toMatch(/^user_/);
    const firmwares = await list(admin, { file_type: "firmware" });
    expect(firmwares.json().items.map((item: { _id: string }) => item._id)).toContain(file._id);
    expect((await list(admin, { file_type: "package" })).json().items).toEqual([]);

    const whole = await t.app.inject({
      method: "GET",
      url: `/api/file/${file._id}`,
      headers: { token: operator },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(firmware)).toBe(true);
    expect(whole.headers["content-disposition"]).toBe(
      `attachment; filename="RUT9_R_00.07.06.bin"; filename*=UTF-8''RUT9_R_00.07.06.bin`,
    );
    const part = await t.app.inject({
      method: "GET",
      url: `/api/file/${file._id}`,
      headers: { token: admin, range: "bytes=100-199" },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${firmware.length}`);
    expect(part.rawPayload.equals(firmware.subarray(100, 200))).toBe(true);
    const past = await t.app.inject({
      method: "GET",
      url: `/api/file/${file._id}`,
      headers: { token: admin, range: `bytes=${firmware.length}-` },
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${firmware.length}`);
  });

  it("names a download both in ASCII and in UTF-8", async () => {
    const name = "Журнал сети (1).txt";
    const id = (await postUpload(t, "/api/upload", admin, { filename: name, bytes: firmware })).json()._id;
    const response = await t.app.inject({ method: "GET", url: `/api/file/${id}`, headers: { token: admin } });
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="______ ____ (1).txt"; filename*=UTF-8''${encodeURIComponent(name).replace("(", "%28").replace(")", "%29")}`,
    );
    expect(contentDisposition('say "hi"\\.txt')).toBe(
      `attachment; filename="say _hi__.txt"; filename*=UTF-8''say%20%22hi%22%5C.txt`,
    );
  });

  it("takes the kind from the extension on the base URL, and the type named after it", async () => {
    const cases: [string, string, string][] = [
      ["/api/upload", "base.bin", "firmware"],
      ["/api/upload", "base.IPK", "package"],
      ["/api/upload", "base.conf", "file"],
      ["/api/upload/bin", "helper-tool", "bin"],
      ["/api/upload/bin", "tool.bin", "bin"],
      ["/api/upload/package", "luci-app.ipk", "package"],
    ];
    for (const [url, filename, fileType] of cases) {
      const response = await postUpload(t, url, admin, { filename, bytes: firmware });
      expect(response.statusCode, `${url} ${filename}: ${response.body}`).toBe(200);
      expect(response.json().file_type).toBe(fileType);
    }
  });

  it("refuses a wrong extension with INVALID_FILE_TYPE", async () => {
    const cases: [string, string][] = [
      ["/api/file/firmware", "notes.txt"],
      ["/api/file/package", "image.bin"],
      ["/api/file/file", "image.bin"],
      ["/api/upload/firmware", "firmware"],
    ];
    for (const [url, filename] of cases) {
      const response = await postUpload(t, url, admin, { filename, bytes: firmware });
      expect(response.statusCode, `${url} ${filename}`).toBe(400);
      expect(response.json().code).toBe("INVALID_FILE_TYPE");
    }
  });

  it("refuses nothing sent with NOTHING_TO_UPLOAD: no multipart, no file part, another field, an empty file", async () => {
    const json = await t.app.inject({
      method: "POST",
      url: "/api/file/file",
      headers: { token: admin },
      payload: {},
    });
    const noFile = await t.app.inject({
      method: "POST",
      url: "/api/file/file",
      headers: { token: admin, "content-type": MULTIPART_CONTENT_TYPE },
      payload: multipartBody([{ field: "note", bytes: Buffer.from("hello") }]),
    });
    const otherField = await postUpload(t, "/api/file/file", admin, {
      field: "upload",
      filename: "a.txt",
      bytes: firmware,
    });
    const empty = await postUpload(t, "/api/file/file", admin, {
      filename: "empty.txt",
      bytes: Buffer.alloc(0),
    });
    const nameless = await postUpload(t, "/api/file/file", admin, { filename: "", bytes: firmware });
    for (const response of [json, noFile, otherField, empty, nameless]) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe("NOTHING_TO_UPLOAD");
    }
  });

  it("refuses a name taken by a file of the same type with FILE_EXISTS, whatever its case", async () => {
    expect(
      (await postUpload(t, "/api/file/package", admin, { filename: "Tool.ipk", bytes: firmware })).statusCode,
    ).toBe(200);
    const again = await postUpload(t, "/api/file/package", helper, { filename: "tool.IPK", bytes: firmware });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("FILE_EXISTS");
    // Another type may use it.
    expect(
      (await postUpload(t, "/api/upload/bin", admin, { filename: "Tool.ipk", bytes: firmware })).statusCode,
    ).toBe(200);
  });

  it("refuses names that are not UTF-8 and other transfer encodings with UNSUPPORTED_ENCODING", async () => {
    const latin1 = await postUpload(t, "/api/file/file", admin, {
      filename: Buffer.from([0x72, 0xe9, 0x73, 0x75, 0x6d, 0xe9, 0x2e, 0x74, 0x78, 0x74]),
      bytes: firmware,
    });
    expect(latin1.statusCode).toBe(400);
    expect(latin1.json().code).toBe("UNSUPPORTED_ENCODING");
    const base64 = await postUpload(t, "/api/file/file", admin, {
      filename: "b64.txt",
      bytes: Buffer.from(firmware.toString("base64")),
      transferEncoding: "base64",
    });
    expect(base64.statusCode).toBe(400);
    expect(base64.json().code).toBe("UNSUPPORTED_ENCODING");
  });

  it("refuses a broken multipart body with FILE_PARSING_FAILED", async () => {
    const whole = multipartBody([{ filename: "cut.txt", bytes: firmware }]);
    const cut = await t.app.inject({
      method: "POST",
      url: "/api/file/file",
      headers: { token: admin, "content-type": MULTIPART_CONTENT_TYPE },
      payload: whole.subarray(0, whole.length - 200),
    });
    expect(cut.statusCode, cut.body).toBe(400);
    expect(cut.json().code).toBe("FILE_PARSING_FAILED");
    const noBoundary = await t.app.inject({
      method: "POST",
      url: "/api/file/file",
      headers: { token: admin, "content-type": "multipart/form-data" },
      payload: whole,
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().code).toBe("FILE_PARSING_FAILED");
    const names = (await list(admin)).json().items.map((file: { filename: string }) => file.filename);
    expect(names).not.toContain("cut.txt");
  });

  it("answers 400 for a kind or type that does not exist", async () => {
    for (const url of ["/api/file/backup", "/api/upload/journal", "/api/file/..%2F..%2Fetc"]) {
      const response = await postUpload(t, url, admin, { filename: "x.txt", bytes: firmware });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe("BAD_REQUEST");
    }
  });
});

describe("rename and delete", () => {
  it("reads one file, renames it within its type, and refuses a taken or unfitting name", async () => {
    const id = (
      await postUpload(t, "/api/file/firmware", admin, { filename: "old.bin", bytes: firmware })
    ).json()._id;
    await postUpload(t, "/api/file/firmware", admin, { filename: "taken.bin", bytes: firmware });
    const read = await t.app.inject({
      method: "POST",
      url: `/api/files/${id}`,
      headers: { token: operator },
    });
    expect(read.json().filename).toBe("old.bin");
    const byOperator = await t.app.inject({
      method: "POST",
      url: `/api/files/${id}`,
      headers: { token: operator },
      payload: { filename: "new.bin" },
    });
    expect(byOperator.statusCode).toBe(403);
    const rename = (filename: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/files/${id}`,
        headers: { token: helper },
        payload: { filename },
      });
    expect((await rename("TAKEN.bin")).json().code).toBe("FILE_EXISTS");
    expect((await rename("new.txt")).json().code).toBe("INVALID_FILE_TYPE");
    const renamed = await rename("new.bin");
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().filename).toBe("new.bin");
    expect((await rename("NEW.bin")).json().filename).toBe("NEW.bin");
  });

  it("removes the row at once and the blob by a job after the commit", async () => {
    const id = (
      await postUpload(t, "/api/file/file", admin, { filename: "gone.txt", bytes: firmware })
    ).json()._id;
    expect(await t.storage.exists(id)).toBe(true);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/file/${id}`,
      headers: { token: admin },
    });
    expect(deleted.json()).toEqual({ deleted: 1 });
    expect(
      (await t.app.inject({ method: "GET", url: `/api/file/${id}`, headers: { token: admin } })).statusCode,
    ).toBe(404);
    await t.jobs.runUntilIdle();
    expect(await t.storage.exists(id)).toBe(false);
  });
});

describe("lists of a router's files, and export", () => {
  it("lists a router's backups, refuses another domain's router, and wants a router for device types", async () => {
    const device = await buildDevice(t, domainId);
    const backup = await buildFile(t, domainId, { fileType: "backup", deviceId: device.id, userId: null });
    await buildFile(t, domainId, { fileType: "journal", deviceId: device.id, userId: null });
    const backups = await list(admin, { device_id: device.id, file_type: "backup" });
    expect(backups.json().items.map((file: { _id: string }) => file._id)).toEqual([backup]);
    expect((await list(admin, { device_id: device.id })).json().items).toHaveLength(2);
    expect((await list(stranger, { device_id: device.id })).json().code).toBe("DEVICE_NOT_FOUND");
    expect((await list(admin, { file_type: "backup" })).json().code).toBe("NOT_ENOUGH_PARAMS");
    expect(
      (await list(admin))
        .json()
        .items.every((file: { metadata: { device_id: null } }) => file.metadata.device_id === null),
    ).toBe(true);
  });

  it("lets an operator list a router's backups but not download one (it holds the router's keys)", async () => {
    const device = await buildDevice(t, domainId);
    const backup = await buildFile(t, domainId, { fileType: "backup", deviceId: device.id, userId: null });
    const journal = await buildFile(t, domainId, { fileType: "journal", deviceId: device.id, userId: null });
    const listed = await list(operator, { device_id: device.id, file_type: "backup" });
    expect(listed.json().items.map((file: { _id: string }) => file._id)).toEqual([backup]);
    const download = (token: string, id: string) =>
      t.app.inject({ method: "GET", url: `/api/file/${id}`, headers: { token } });
    const refused = await download(operator, backup);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("PERMISSION_DENIED");
    expect((await download(operator, journal)).statusCode).toBe(200);
    expect((await download(admin, backup)).statusCode).toBe(200);
  });

  it("exports a list as CSV", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/files/export",
      headers: { token: admin },
      payload: { file_type: "firmware" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    const [header, ...rows] = response.body.trim().split("\r\n");
    expect(header).toBe("filename,file_type,size,sha256,create_date,status,user");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.includes(",firmware,"))).toBe(true);
  });
});
