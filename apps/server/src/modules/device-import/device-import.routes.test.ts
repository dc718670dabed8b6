import { createHash } from "node:crypto";
import type { DeviceImportRow } from "@cellfleet/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../platform/config";
import { buildDevice, uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn, signInEveryKind } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { applyImport, checkImport, csvFile, postImport, xlsxFile } from "./device-import.test-support";

let t: TestApp;
let domainId: string;
let admin: string;
let kinds: Awaited<ReturnType<typeof signInEveryKind>>;
let otherDomainId: string;

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  otherDomainId = (await buildDomain(t)).id;
  kinds = await signInEveryKind(t, domainId);
  admin = kinds.admin;
});
afterAll(async () => {
  await t?.close();
});

const KEY = "ab".repeat(32);
const HEADER = "ident,key,tags,description,position";

async function devicesOf(inDomain: string, idents: readonly string[]) {
  return t.db
    .selectFrom("devices")
    .select(["ident", "description", "tags", "aes_key", "latitude", "longitude", "position_source"])
    .where("domain_id", "=", inDomain)
    .where("ident", "in", idents)
    .orderBy("ident")
    .execute();
}

async function countJobs(): Promise<number> {
  const row = await t.db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const byIdent = (rows: readonly DeviceImportRow[], ident: string) => rows.find((row) => row.ident === ident);

describe("access", () => {
  const file = csvFile([HEADER, `${uniqueDeviceIdent()},,,,`]);
  const urls = ["/api/devices/import/check", `/api/devices/import/${"0".repeat(32)}`];

  it.each(urls)("%s answers 401 without a token", async (url) => {
    const { status, body } = await postImport(t, null, url, file);
    expect(status).toBe(401);
    expect(body.code).toBe("TOKEN_NOT_GIVEN");
  });

  it.each(urls)("%s is for admins: superusers, assistants, juniors and operators get 403", async (url) => {
    for (const kind of ["superuser", "assistant", "junior", "operator"] as const) {
      const { status, body } = await postImport(t, kinds[kind], url, file);
      expect(status, kind).toBe(403);
      expect(body.code, kind).toBe("PERMISSION_DENIED");
    }
  });
});

describe("bad input", () => {
  it("answers NOTHING_TO_UPLOAD, INVALID_FILE_TYPE, UNSUPPORTED_ENCODING and FILE_PARSING_FAILED", async () => {
    expect((await postImport(t, admin, "/api/devices/import/check")).body.code).toBe("NOTHING_TO_UPLOAD");
    const exe = await postImport(t, admin, "/api/devices/import/check", {
      name: "a.exe",
      bytes: Buffer.from("x"),
    });
    expect([exe.status, exe.body.code]).toEqual([400, "INVALID_FILE_TYPE"]);
    // "роутер" in windows-1251: not UTF-8.
    const cp1251 = { name: "a.csv", bytes: Buffer.from([0xf0, 0xee, 0xf3, 0xf2, 0xe5, 0xf0]) };
    expect((await postImport(t, admin, "/api/devices/import/check", cp1251)).body.code).toBe(
      "UNSUPPORTED_ENCODING",
    );
    const broken = { name: "a.xlsx", bytes: Buffer.from("PK\u0003\u0004 not a workbook") };
    expect((await postImport(t, admin, "/api/devices/import/check", broken)).body.code).toBe(
      "FILE_PARSING_FAILED",
    );
    const quotes = csvFile([HEADER, '"unclosed,,,,']);
    expect((await postImport(t, admin, "/api/devices/import/check", quotes)).body.code).toBe(
      "FILE_PARSING_FAILED",
    );
  });

  it("answers 400 to a plan that is not one", async () => {
    const { status } = await postImport(t, admin, "/api/devices/import/not-a-plan", csvFile([HEADER]));
    expect(status).toBe(400);
  });
});

describe("dry run of a CSV file", () => {
  it("tells per row what would be created, changed, left or refused and why, and writes nothing", async () => {
    const mine = await buildDevice(t, domainId, {
      description: "Old",
      tags: ["north"],
      aes_key: KEY.toUpperCase(),
    });
    const same = await buildDevice(t, domainId, { description: "Same" });
    const elsewhere = await buildDevice(t, otherDomainId);
    const [fresh, repeated, generated] = [uniqueDeviceIdent(), uniqueDeviceIdent(), uniqueDeviceIdent()];
    const file = csvFile([
      HEADER,
      `${fresh},${KEY},north;pumps,"Gate 1, by the road","55.75,37.61"`,
      `${mine.ident},generate,north,New,`,
      `${same.ident},,,Same,`,
      `${elsewhere.ident},,,,`,
      `${repeated},,,,`,
      `${repeated},,,,`,
      "bad-ident,,,,",
      `${uniqueDeviceIdent()},123,,,`,
      `${uniqueDeviceIdent()},,x,,`,
      `${uniqueDeviceIdent()},,,,"95,10"`,
      `${generated},GENERATE,,,`,
    ]);
    const plan = await checkImport(t, admin, file);
    expect(plan).toMatchObject({ create: 3, change: 1, unchanged: 1, refuse: 6 });
    expect(plan.plan).toMatch(/^[0-9a-f]{32}$/);
    expect(byIdent(plan.rows, fresh)).toEqual({ line: 2, ident: fresh, outcome: "create", fields: [] });
    expect(byIdent(plan.rows, mine.ident)).toMatchObject({
      outcome: "change",
      fields: ["description", "key"],
    });
    expect(byIdent(plan.rows, same.ident)).toMatchObject({ outcome: "unchanged", fields: [] });
    expect(byIdent(plan.rows, elsewhere.ident)).toMatchObject({
      code: "DEVICE_ALREADY_EXIST",
      reason: "otherDomain",
    });
    expect(plan.rows.filter((row) => row.ident === repeated).map((row) => row.outcome)).toEqual([
      "create",
      "refuse",
    ]);
    expect(plan.rows.find((row) => row.line === 7)).toMatchObject({
      code: "DEVICE_ALREADY_EXIST",
      reason: "repeated",
    });
    expect(plan.rows.find((row) => row.line === 8)).toMatchObject({
      code: "BAD_IDENT",
      reason: "identChars",
    });
    expect(plan.rows.find((row) => row.line === 9)).toMatchObject({
      code: "BAD_REQUEST",
      reason: "keyInvalid",
    });
    expect(plan.rows.find((row) => row.line === 10)).toMatchObject({ code: "TAGS_MUST_BE_ARRAY" });
    expect(plan.rows.find((row) => row.line === 11)).toMatchObject({
      code: "BAD_REQUEST",
      reason: "position",
    });
    expect(byIdent(plan.rows, generated)).toMatchObject({ outcome: "create" });
    expect(await devicesOf(domainId, [fresh, repeated, generated])).toEqual([]);
    expect((await devicesOf(domainId, [mine.ident]))[0]?.description).toBe("Old");
  });

  it("refuses creations beyond the domain's device limit, counting the routers it holds", async () => {
    const small = (await buildDomain(t, { device_limit: 3 })).id;
    const smallAdmin = await signIn(t.app, await buildUser(t, { role: 2, domainId: small }));
    await buildDevice(t, small);
    const idents = [uniqueDeviceIdent(), uniqueDeviceIdent(), uniqueDeviceIdent()];
    const plan = await checkImport(
      t,
      smallAdmin,
      csvFile([HEADER, ...idents.map((ident) => `${ident},,,,`)]),
    );
    expect(plan.rows.map((row) => row.reason ?? row.outcome)).toEqual(["create", "create", "domainLimit"]);
    expect(plan.rows[2]?.code).toBe("DEVICE_COUNT_LIMITED");
    const applied = await applyImport(
      t,
      smallAdmin,
      csvFile([HEADER, ...idents.map((ident) => `${ident},,,,`)]),
      plan.plan,
    );
    expect(applied.status).toBe(200);
    expect((await devicesOf(small, idents)).map((row) => row.ident)).toEqual(idents.slice(0, 2).sort());
  });
});

describe("apply", () => {
  it("creates and changes in one go, stores positions, and answers generated keys once", async () => {
    const mine = await buildDevice(t, domainId, { description: "Old", tags: ["north"] });
    const [fresh, generated] = [uniqueDeviceIdent(), uniqueDeviceIdent()];
    const file = csvFile([
      HEADER,
      `${fresh},${KEY},north;pumps,"Gate 1, by the road","55.75,37.61"`,
      `${generated},generate,,,`,
      `${mine.ident},generate,south,,"-33.9 151.2"`,
      "bad-ident,,,,",
    ]);
    const plan = await checkImport(t, admin, file);
    const { status, body } = await applyImport(t, admin, file, plan.plan);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ plan: plan.plan, create: 2, created: 2, change: 1, refuse: 1 });
    expect(body.keys.map((key) => key.ident).sort()).toEqual([generated, mine.ident].sort());
    for (const key of body.keys) expect(key.key).toMatch(/^[0-9A-F]{64}$/);
    const stored = await devicesOf(domainId, [fresh, generated, mine.ident]);
    const row = (ident: string) => stored.find((device) => device.ident === ident);
    expect(row(fresh)).toMatchObject({
      description: "Gate 1, by the road",
      tags: ["north", "pumps"],
      aes_key: KEY.toUpperCase(),
      latitude: 55.75,
      longitude: 37.61,
      position_source: "admin",
    });
    expect(row(generated)?.aes_key).toBe(body.keys.find((key) => key.ident === generated)?.key);
    expect(row(mine.ident)).toMatchObject({
      description: "Old",
      tags: ["south"],
      latitude: -33.9,
      position_source: "admin",
    });
    expect(row(mine.ident)?.aes_key).toBe(body.keys.find((key) => key.ident === mine.ident)?.key);
    // The same file again: nothing new to create, so the old plan is no longer the plan.
    const again = await applyImport(t, admin, file, plan.plan);
    expect([again.status, again.body.code]).toEqual([409, "BAD_REQUEST"]);
  });

  it("writes nothing when the file or the fleet changed since the check (409)", async () => {
    const ident = uniqueDeviceIdent();
    const file = csvFile([HEADER, `${ident},,,,`]);
    const plan = await checkImport(t, admin, file);
    const other = csvFile([HEADER, `${ident},,,Another description,`]);
    expect((await applyImport(t, admin, other, plan.plan)).status).toBe(409);
    await buildDevice(t, otherDomainId, { ident });
    const answer = await applyImport(t, admin, file, plan.plan);
    expect([answer.status, answer.body.code]).toEqual([409, "BAD_REQUEST"]);
    expect(await devicesOf(domainId, [ident])).toEqual([]);
  });

  it("leaves nothing behind when a write fails midway: the creations roll back with the failed change", async () => {
    const mine = await buildDevice(t, domainId, { description: "Before" });
    const fresh = [uniqueDeviceIdent(), uniqueDeviceIdent()];
    // The creations are written first; the change fails after them, inside the same transaction.
    await sql`create or replace function refuse_boom() returns trigger language plpgsql as $$
      begin if new.description = 'boom' then raise exception 'boom'; end if; return new; end $$`.execute(
      t.db,
    );
    await sql`create trigger refuse_boom before update on devices for each row execute function refuse_boom()`.execute(
      t.db,
    );
    try {
      const file = csvFile([HEADER, `${fresh[0]},generate,,,`, `${fresh[1]},,,,`, `${mine.ident},,,boom,`]);
      const plan = await checkImport(t, admin, file);
      expect(plan).toMatchObject({ create: 2, change: 1 });
      const jobsBefore = await countJobs();
      const answer = await applyImport(t, admin, file, plan.plan);
      expect([answer.status, answer.body.code]).toEqual([500, "DEVICE_CREATE_ERROR"]);
      expect(await devicesOf(domainId, fresh)).toEqual([]);
      expect((await devicesOf(domainId, [mine.ident]))[0]?.description).toBe("Before");
      // No outbox event of the rolled-back work either (the user action on the changed router).
      expect(await countJobs()).toBe(jobsBefore);
    } finally {
      await sql`drop trigger refuse_boom on devices`.execute(t.db);
    }
  });
});

describe("XLSX", () => {
  it("reads the first sheet: a header in any order, numbers as positions in two columns", async () => {
    const mine = await buildDevice(t, domainId, { aes_key: KEY.toUpperCase() });
    const fresh = uniqueDeviceIdent();
    const file = await xlsxFile([
      ["Description", "Ident", "Latitude", "Longitude", "Tags", "Key"],
      ["Pump station", fresh, 59.93, 30.31, "pumps;spb", "generate"],
      ["", mine.ident, "", "", "", KEY],
      ["", "no!", "", "", "", ""],
    ]);
    const plan = await checkImport(t, admin, file);
    expect(plan.rows.map((row) => [row.line, row.outcome, row.code ?? ""])).toEqual([
      [2, "create", ""],
      [3, "unchanged", ""],
      [4, "refuse", "BAD_IDENT"],
    ]);
    const { status, body } = await applyImport(t, admin, file, plan.plan);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(await devicesOf(domainId, [fresh])).toMatchObject([
      { description: "Pump station", tags: ["pumps", "spb"], latitude: 59.93, longitude: 30.31 },
    ]);
    const stored = (await devicesOf(domainId, [fresh]))[0]?.aes_key ?? "";
    expect(createHash("sha256").update(stored).digest("hex")).toBe(
      createHash("sha256")
        .update(body.keys[0]?.key ?? "-")
        .digest("hex"),
    );
  });
});

describe("the licences' room", () => {
  let limited: TestApp;
  afterAll(async () => {
    await limited?.close();
  });

  it("refuses creations beyond what the licences allow, across domains", async () => {
    limited = await createTestApp({
      config: { licenses: { ...loadConfig({}).licenses, unlicensedDeviceLimit: 3 } },
    });
    const one = (await buildDomain(limited)).id;
    const two = (await buildDomain(limited)).id;
    await buildDevice(limited, two);
    const oneAdmin = await signIn(limited.app, await buildUser(limited, { role: 2, domainId: one }));
    const idents = [uniqueDeviceIdent(), uniqueDeviceIdent(), uniqueDeviceIdent()];
    const file = csvFile([HEADER, ...idents.map((ident) => `${ident},,,,`)]);
    const { status, body } = await postImport(limited, oneAdmin, "/api/devices/import/check", file);
    expect(status).toBe(200);
    const rows = body.rows as DeviceImportRow[];
    expect(rows.map((row) => row.reason ?? row.outcome)).toEqual(["create", "create", "licenceLimit"]);
    expect(rows[2]?.code).toBe("DEVICE_COUNT_LIMITED");
  });
});
