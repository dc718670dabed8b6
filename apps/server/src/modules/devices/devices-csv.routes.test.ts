import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 11: the bulk import split on commas, so it could not read back the quoted fields the
// device export writes; the audit export had no formula guard. One CSV module serves them all.
let t: TestApp;
let fromToken: string;
let toToken: string;
let toDomainId: string;

beforeAll(async () => {
  t = await createTestApp();
  fromToken = await signIn(
    t.app,
    await buildUser(t, { role: 2, domainId: (await buildDomain(t, { device_limit: 50 })).id }),
  );
  toDomainId = (await buildDomain(t, { device_limit: 50 })).id;
  toToken = await signIn(t.app, await buildUser(t, { role: 2, domainId: toDomainId }));
});
afterAll(async () => {
  await t.close();
});

const awkward = [
  { description: 'Gate "north", by the road', tags: ["north", "pumps"] },
  { description: '=HYPERLINK("http://evil")', tags: [] },
  { description: "Подвал; второй этаж", tags: ["подвал"] },
];

describe("device CSV: what the export writes, the bulk import reads back", () => {
  it("imports the export of one domain into another with the same idents, descriptions and tags", async () => {
    const idents = awkward.map(() => uniqueDeviceIdent());
    for (const [index, device] of awkward.entries()) {
      const created = await callApi(t.app, "POST", "/api/devices/new", fromToken, {
        ident: idents[index],
        ...device,
      });
      expect(created.status, created.text).toBe(200);
    }
    const exported = await t.app.inject({
      method: "POST",
      url: "/api/devices/export",
      headers: { token: fromToken },
      payload: {},
    });
    expect(exported.statusCode).toBe(200);
    // The formula is guarded in the file a spreadsheet opens.
    expect(exported.body).toContain(`"'=HYPERLINK(""http://evil"")"`);

    // Idents are unique across domains: the routers move, so they leave the first domain.
    await t.db.deleteFrom("devices").where("ident", "in", idents).execute();
    const imported = await callApi(t.app, "POST", "/api/devices/bulk", toToken, { text: exported.body });
    expect(imported.status, imported.text).toBe(200);
    const items = await t.db
      .selectFrom("devices")
      .select(["ident", "description", "tags"])
      .where("domain_id", "=", toDomainId)
      .execute();
    for (const [index, device] of awkward.entries()) {
      const found = items.find((item) => item.ident === idents[index]);
      expect(found, JSON.stringify(imported.body)).toMatchObject({ description: device.description });
      expect([...(found?.tags ?? [])].sort()).toEqual([...device.tags].sort());
    }
  });
});

describe("audit CSV export", () => {
  it("guards cells a spreadsheet would run as formulas (a username typed at sign-in)", async () => {
    const rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
    await t.app.inject({
      method: "POST",
      url: "/api/login/",
      payload: { username: '=HYPERLINK("http://evil")', password: "x" },
    });
    await t.app.auditLog.settle();
    const exported = await t.app.inject({
      method: "POST",
      url: "/api/web_actions/export",
      headers: { token: rootToken },
      payload: {},
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(exported.body).not.toMatch(/(^|,|\r\n)"?=HYPERLINK/);
  });
});
