import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFile, postUpload } from "../../test/file-factories";
import type { TestApp } from "../../test/test-app";
import { createFilesFixture, FIRMWARE, listFiles } from "./files-routes.test-support";

// Common files through the API: who may do what, another domain's ids, and paths that never reach
// the file system (spec sections 5, 6 and 7).

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

describe("who may", () => {
  it("answers 401 to anonymous callers and 403 to an operator's upload and a helper's delete", async () => {
    expect(
      (await postUpload(t, "/api/file/firmware", undefined, { filename: "a.bin", bytes: firmware }))
        .statusCode,
    ).toBe(401);
    const refused = await postUpload(t, "/api/file/firmware", operator, {
      filename: "a.bin",
      bytes: firmware,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("PERMISSION_DENIED");
    const uploaded = await postUpload(t, "/api/file/firmware", helper, {
      filename: "helper.bin",
      bytes: firmware,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const id = uploaded.json()._id as string;
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/file/${id}`,
      headers: { token: helper },
    });
    expect(deleted.statusCode).toBe(403);
    expect((await list(operator)).json().items.map((file: { _id: string }) => file._id)).toContain(id);
    const byAdmin = await t.app.inject({
      method: "DELETE",
      url: `/api/file/${id}`,
      headers: { token: admin },
    });
    expect(byAdmin.json()).toEqual({ deleted: 1 });
  });

  it("answers FILE_NOT_FOUND for another domain's file ids, on every file call", async () => {
    const id = (
      await postUpload(t, "/api/file/file", admin, { filename: "mine.txt", bytes: firmware })
    ).json()._id;
    const calls = [
      t.app.inject({ method: "GET", url: `/api/file/${id}`, headers: { token: stranger } }),
      t.app.inject({ method: "POST", url: `/api/files/${id}`, headers: { token: stranger } }),
      t.app.inject({
        method: "POST",
        url: `/api/files/${id}`,
        headers: { token: stranger },
        payload: { filename: "x.txt" },
      }),
      t.app.inject({ method: "DELETE", url: `/api/file/${id}`, headers: { token: stranger } }),
      t.app.inject({
        method: "DELETE",
        url: "/api/file/many",
        headers: { token: stranger },
        payload: { targets: [id] },
      }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe("FILE_NOT_FOUND");
    }
    expect((await list(stranger)).json().items).toEqual([]);
    expect(
      (await t.app.inject({ method: "GET", url: `/api/file/${id}`, headers: { token: admin } })).statusCode,
    ).toBe(200);
  });

  it("never deletes a 'system' file, and deletes many all or none", async () => {
    const system = await buildFile(t, domainId, { filename: "factory.bin", fileType: "firmware" });
    const own = (
      await postUpload(t, "/api/file/file", admin, { filename: "own.txt", bytes: firmware })
    ).json()._id;
    const refused = await t.app.inject({
      method: "DELETE",
      url: "/api/file/many",
      headers: { token: admin },
      payload: { targets: [own, system] },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("ACCESS_DENIED");
    const both = await list(admin);
    expect(both.json().items.map((file: { _id: string }) => file._id)).toEqual(
      expect.arrayContaining([own, system]),
    );
    const missing = await t.app.inject({
      method: "DELETE",
      url: "/api/file/many",
      headers: { token: admin },
      payload: { targets: [own, "00000000-0000-4000-8000-000000000000"] },
    });
    expect(missing.json().code).toBe("FILE_NOT_FOUND");
    for (const payload of [{ targets: [] }, {}]) {
      const empty = await t.app.inject({
        method: "DELETE",
        url: "/api/file/many",
        headers: { token: admin },
        payload,
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().code).toBe("FILES_LIST_EMPTY");
    }
  });
});

describe("paths never reach the file system", () => {
  it("keeps only the last segment of a sent name, and stores under a server-made id", async () => {
    const response = await postUpload(t, "/api/upload", admin, {
      filename: "../../../etc/passwd",
      bytes: firmware,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().filename).toBe("passwd");
    expect(response.json()._id).toMatch(/^[0-9a-f-]{36}$/);
    const windows = await postUpload(t, "/api/upload", admin, {
      filename: "C:\\fakepath\\..\\boot.ini",
      bytes: firmware,
    });
    expect(windows.json().filename).toBe("boot.ini");
  });

  it("answers FILE_NOT_FOUND (never a file) for ids that look like paths", async () => {
    // Some never match the route (NOT_FOUND), the rest are looked up as ids and found nowhere.
    const ids = ["..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "..", "C:%5Cboot.ini", "..%5Cwin.ini"];
    for (const id of ids) {
      const response = await t.app.inject({
        method: "GET",
        url: `/api/file/${id}`,
        headers: { token: admin },
      });
      expect(response.statusCode, id).toBe(404);
      expect(["FILE_NOT_FOUND", "OPERATION_IS_NOT_SUPPORTED"]).toContain(response.json().code);
    }
    // A NUL is refused at the boundary, naming the path parameter.
    const nul = await t.app.inject({ method: "GET", url: "/api/file/a%00b", headers: { token: admin } });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("params.") });
  });
});
