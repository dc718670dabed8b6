import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appNodes } from "../../test/app-nodes";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { type CaughtMail, catcherSmtp, type MailCatcher, startMailCatcher } from "../../test/mail-catcher";
import { createTestClock } from "../../test/test-clock";
import { createTestDatabase, type TestDatabase } from "../../test/test-db";
import { enqueueMailFiring } from "./uptime-mail.jobs";

// Two server nodes on one database, both dispatching, mailing to an SMTP server on loopback: the
// monthly rule mails last month's PDF once per recipient on the 1st (06:00 in Moscow, 03:00Z), also
// when the same occurrence is queued again; a node started after both stopped mails the next month.

const clock = createTestClock(new Date("2026-11-30T12:00:00Z"));
const DECEMBER_1 = new Date("2026-12-01T03:00:00Z");
const JANUARY_1 = new Date("2027-01-01T03:00:00Z");
let store: TestDatabase;
let catcher: MailCatcher;
const nodes = appNodes(() => store, clock);

beforeAll(async () => {
  store = await createTestDatabase();
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await nodes.close();
  await store?.drop();
  await catcher?.close();
});

const startNode = () => nodes.start({ smtp: catcherSmtp(catcher) });
const view = nodes.view;

/** The text of the PDF a caught mail carries (base64 in its application/pdf part), and its file name. */
async function attachedPdf(mail: CaughtMail): Promise<{ filename: string; text: string }> {
  const part =
    /Content-Type: application\/pdf; name=([^\r\n]+)\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
      mail.raw,
    );
  if (!part) throw new Error("no PDF attached");
  const run = promisify(execFile);
  const child = run("pdftotext", ["-", "-"], { encoding: "utf8" });
  child.child.stdin?.end(Buffer.from((part[2] ?? "").replace(/\s/g, ""), "base64"));
  return { filename: (part[1] ?? "").replace(/"/g, ""), text: (await child).stdout.replace(/\s+/g, " ") };
}

const toPerson = (to: string) => catcher.mails.filter((mail) => mail.to.includes(to));

describe("the monthly uptime mail on two nodes", () => {
  it("mails last month's PDF once per recipient, and the next month after a restart", {
    timeout: 90_000,
  }, async () => {
    const a = await startNode();
    const b = await startNode();
    const domainId = (await buildDomain(view(a), { name: "Northwind", time_zone: "Europe/Moscow" })).id;
    const admin = await signIn(a, await buildUser(view(a), { role: 2, domainId }));
    const router = await buildDevice(view(a), domainId, {
      ident: "GATE-N1",
      tags: ["north"],
      create_time: new Date("2026-10-01T00:00:00Z"),
    });
    await buildDevice(view(a), domainId, { ident: "GATE-S1", tags: ["south"] });
    // 12 h down of November's 720 h: 98.3 %.
    await store.database.db
      .insertInto("device_outages")
      .values({
        device_id: router.id,
        started: new Date("2026-11-10T00:00:00Z"),
        ended: new Date("2026-11-10T12:00:00Z"),
      })
      .execute();
    const created = await a.inject({
      method: "POST",
      url: "/api/uptime/mail-rule",
      headers: { token: admin },
      payload: {
        name: "North for the customer",
        recipients: ["ops@customer.example", "Boss@Customer.example"],
        scope: "tag",
        tag: "north",
        language: "ru",
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const ruleId: string = created.json().item._id;
    expect(created.json().item.next_run).toBe(DECEMBER_1.getTime());

    a.jobDispatcher.start();
    b.jobDispatcher.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(catcher.mails).toHaveLength(0);
      clock.advance(DECEMBER_1.getTime() - clock.now().getTime());
      const mail = await catcher.waitFor("ops@customer.example", { timeoutMs: 20_000 });
      await catcher.waitFor("boss@customer.example", { timeoutMs: 20_000 });
      expect(mail.raw).toContain("Subject: =?UTF-8?");
      const pdf = await attachedPdf(mail);
      expect(pdf.filename).toBe("uptime-2026-11-north.pdf");
      expect(pdf.text).toContain("Отчёт о доступности: ноябрь 2026");
      expect(pdf.text).toContain("Тег: north · Месяц: 2026-11 · Часовой пояс: Europe/Moscow");
      expect(pdf.text).toContain("GATE-N1 98,3 % 1 12 ч 0 мин 12 ч 0 мин");
      expect(pdf.text).not.toContain("GATE-S1");
      // The same occurrence queued again (a catch-up racing the firing) finds the rule moved on.
      await a.jobs.transaction((trx) =>
        enqueueMailFiring({ jobs: a.jobs }, trx, domainId, ruleId, DECEMBER_1),
      );
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(toPerson("ops@customer.example")).toHaveLength(1);
      expect(toPerson("boss@customer.example")).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }

    // Both nodes gone; a new one starts after the next 1st and mails December from the job left queued.
    clock.advance(JANUARY_1.getTime() - clock.now().getTime() + 3600_000);
    const c = await startNode();
    try {
      c.jobDispatcher.start();
      const next = await catcher.waitFor("ops@customer.example", { after: 1, timeoutMs: 20_000 });
      expect((await attachedPdf(next)).filename).toBe("uptime-2026-12-north.pdf");
      const stored = await store.database.db
        .selectFrom("uptime_mail_rules")
        .select(["last_run", "next_run", "last_month"])
        .where("id", "=", ruleId)
        .executeTakeFirstOrThrow();
      expect(stored.last_month).toBe("2026-12");
      expect(stored.last_run?.getTime()).toBe(JANUARY_1.getTime());
      expect(stored.next_run?.getTime()).toBe(new Date("2027-02-01T03:00:00Z").getTime());
    } finally {
      await c.close();
    }
  });
});
