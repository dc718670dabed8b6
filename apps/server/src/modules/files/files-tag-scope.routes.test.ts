import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, buildApiToken } from "../../test/api-token-factories";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { buildFile } from "../../test/file-factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 30, ADR 041: an admin's API token narrowed to the tag "north" (files.delete is an admin's
// action, and only a token can narrow an admin) deletes the files of north's routers only; another
// tag's file is not found, whether named alone or among others, and nothing of the list is deleted.

let t: TestApp;
let domainId: string;
let adminId: string;
let token: string;
let north: string;
let south: string;

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  domainId = (await buildDomain(t)).id;
  const admin = await buildUser(t, { role: 2, domainId });
  adminId = admin.id;
  token = await buildApiToken(t, await signIn(t.app, admin), { tagScope: ["north"] });
  north = (await buildDevice(t, domainId, { tags: ["north"] })).id;
  south = (await buildDevice(t, domainId, { tags: ["south"] })).id;
});
afterAll(async () => {
  await t.close();
});

const backupOf = (deviceId: string) =>
  buildFile(t, domainId, { deviceId, fileType: "backup", userId: adminId, filename: `b-${deviceId}.tar.gz` });

const remaining = async (ids: string[]) =>
  (await t.db.selectFrom("files").select("id").where("id", "in", ids).execute()).map((row) => row.id).sort();

describe("deleting files with a tag-scoped token", () => {
  it("deletes a list of files of its routers", async () => {
    const ids = [await backupOf(north), await backupOf(north)];
    const response = await t.app.inject({
      method: "DELETE",
      url: "/api/file/many",
      headers: bearer(token),
      payload: { targets: ids },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ deleted: 2 });
  });

  it("finds no file of another tag's router, alone or in a list, and deletes nothing", async () => {
    const own = await backupOf(north);
    const other = await backupOf(south);
    const alone = await t.app.inject({ method: "DELETE", url: `/api/file/${other}`, headers: bearer(token) });
    expect([alone.statusCode, alone.json().code]).toEqual([404, "FILE_NOT_FOUND"]);
    const listed = await t.app.inject({
      method: "DELETE",
      url: "/api/file/many",
      headers: bearer(token),
      payload: { targets: [own, other] },
    });
    expect([listed.statusCode, listed.json().code]).toEqual([404, "FILE_NOT_FOUND"]);
    expect(listed.body).not.toContain(south);
    expect(await remaining([own, other])).toEqual([own, other].sort());
  });
});
