import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { SIM_A } from "../insight/insight.test-support";

// The PDF report (issue 31, ADR 044): the figures of a hand-built October 2026 in Moscow
// (744 h, 44,640 min), read back out of the PDF with poppler's pdftotext.

const at = (iso: string) => new Date(iso);
const GB = 1024 ** 3;
let t: TestApp;
let token: string;
let northToken: string;
let rootToken: string;

/** The PDF's text, spaces and line breaks collapsed, so columns' wrapping does not matter. */
async function pdfText(pdf: Buffer): Promise<string> {
  const run = promisify(execFile);
  const child = run("pdftotext", ["-", "-"], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  child.child.stdin?.end(pdf);
  return (await child).stdout.replace(/\s+/g, " ");
}

const pdf = (body: object, who: string | null = token) =>
  t.app.inject({
    method: "POST",
    url: "/api/uptime/pdf",
    payload: body,
    ...(who === null ? {} : { headers: { token: who } }),
  });

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  const domainId = (await buildDomain(t, { name: "Northwind Sites", time_zone: "Europe/Moscow" })).id;
  token = await signIn(t.app, await buildUser(t, { role: 4, domainId }));
  northToken = await signIn(t.app, await buildUser(t, { role: 4, domainId, tagScope: ["north"] }));
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  const routerA = await buildDevice(t, domainId, {
    ident: "GATE-A",
    tags: ["north"],
    create_time: at("2026-09-01T00:00:00Z"),
    last_contact: t.clock.now(),
  });
  await buildDevice(t, domainId, { ident: "GATE-B", create_time: at("2026-09-01T00:00:00Z") });
  await t.db
    .insertInto("device_outages")
    .values([
      { device_id: routerA.id, started: at("2026-10-10T10:00:00Z"), ended: at("2026-10-10T12:30:00Z") },
      { device_id: routerA.id, started: at("2026-10-20T00:00:00Z"), ended: at("2026-10-20T00:45:00Z") },
    ])
    .execute();
  await t.db
    .insertInto("sim_usage")
    .values({
      domain_id: domainId,
      iccid: SIM_A,
      day: "2026-10-15",
      device_id: routerA.id,
      modem: "1-1",
      slot: 1,
      rx: 3 * GB,
      tx: GB / 2,
      seen: at("2026-10-15T12:00:00Z"),
    })
    .execute();
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/uptime/pdf", () => {
  it("answers 401 without a session, 403 to a superuser, 400 without a language", async () => {
    expect((await pdf({ month: "2026-10", language: "en" }, null)).statusCode).toBe(401);
    expect((await pdf({ month: "2026-10", language: "en" }, rootToken)).statusCode).toBe(403);
    const noLanguage = await pdf({ month: "2026-10" });
    expect(noLanguage.statusCode).toBe(400);
    expect(noLanguage.json().code).toBe("BAD_REQUEST");
  });

  it("is a PDF with the month's figures per router and together, in English", async () => {
    const answer = await pdf({ month: "2026-10", language: "en" });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/pdf");
    expect(answer.headers["content-disposition"]).toBe('attachment; filename="uptime-2026-10.pdf"');
    const text = await pdfText(answer.rawPayload);
    expect(text).toContain("Uptime report: October 2026");
    expect(text).toContain("Northwind Sites");
    expect(text).toContain("All routers · Month: 2026-10 · Time zone: Europe/Moscow");
    // 195 of 44,640 minutes down: 99.56 %; two outages, the longest 2 h 30 min.
    expect(text).toContain("GATE-A 99.6 % 2 2 h 30 min 3 h 15 min 0 min unknown");
    expect(text).toContain(`${SIM_A}: 3 GB / 512 MB`);
    expect(text).toContain("GATE-B no report yet 0 0 min 0 min 0 min unknown");
    expect(text).toContain("All 2 routers 99.6 % 2 2 h 30 min 3 h 15 min");
  });

  it("is written in Russian for a tag's routers when asked", async () => {
    const answer = await pdf({ month: "2026-10", scope: "tag", tag: "north", language: "ru" });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-disposition"]).toBe('attachment; filename="uptime-2026-10-north.pdf"');
    const text = await pdfText(answer.rawPayload);
    expect(text).toContain("Отчёт о доступности: октябрь 2026");
    expect(text).toContain("Тег: north · Месяц: 2026-10 · Часовой пояс: Europe/Moscow");
    expect(text).toContain("GATE-A 99,6 % 2 2 ч 30 мин 3 ч 15 мин 0 мин неизвестно");
    expect(text).toContain(`${SIM_A}: 3 ГБ / 512 МБ`);
    expect(text).not.toContain("GATE-B");
    expect(text).toContain("Все маршрутизаторы: 1 99,6 %");
  });

  it("holds only the routers of a person limited to tags (ADR 041)", async () => {
    const answer = await pdf({ month: "2026-10", language: "en" }, northToken);
    expect(answer.statusCode).toBe(200);
    const text = await pdfText(answer.rawPayload);
    expect(text).toContain("GATE-A 99.6 %");
    expect(text).not.toContain("GATE-B");
  });
});
