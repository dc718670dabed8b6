import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { type BuiltUser, buildDomain, buildUser, signIn, uniqueName } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { requireSession } from "../auth/session-guard";
import type { AppContext } from "../context";
import { AppError } from "../errors";
import { MAIL_SEND_JOB } from "../mail/mail.jobs";

// Issue 11: a save whose audit entry could not be written still succeeded, because entries were
// written after the answer. A call that saves is one unit of work: its changes, its jobs, its
// entry commit together, and its bus messages go out after the commit.
const fixtureRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post("/fixture/rename", { config: { saves: true, permission: "account.self" } }, async (request) => {
    const body = request.body as { full_name: string; fail?: boolean };
    const session = requireSession(request);
    await ctx.db
      .updateTable("users")
      .set({ full_name: body.full_name })
      .where("id", "=", session.user.id)
      .execute();
    await ctx.jobs.transaction((trx) =>
      ctx.jobs.enqueue(trx, {
        kind: MAIL_SEND_JOB,
        payload: { to: "x@example.com", subject: body.full_name, text: "" },
      }),
    );
    await ctx.bus.publish("fixture:renamed", { full_name: body.full_name });
    if (body.fail) throw new AppError("BAD_REQUEST", "refused after writing");
    return { ok: true };
  });
};

let t: TestApp;
let user: BuiltUser;
let token: string;
const heard: unknown[] = [];

beforeAll(async () => {
  t = await createTestApp({ extraApiRoutes: [fixtureRoutes], runJobs: false });
  user = await buildUser(t, { role: 2, domainId: (await buildDomain(t)).id });
  token = await signIn(t.app, user);
  t.bus.subscribe("fixture:renamed", (message) => heard.push(message));
});
afterAll(async () => {
  await t.close();
});

async function fullName(): Promise<string> {
  const row = await t.db
    .selectFrom("users")
    .select("full_name")
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  return row.full_name;
}
async function mailsAbout(subject: string): Promise<number> {
  const rows = await t.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", MAIL_SEND_JOB)
    .where(sql<string>`payload->>'subject'`, "=", subject)
    .execute();
  return rows.length;
}
async function entriesOf(status: "SUCCESS" | "FAILURE", name: string): Promise<number> {
  await t.app.auditLog.settle();
  const rows = await t.db
    .selectFrom("web_actions")
    .select("id")
    .where("author_id", "=", user.id)
    .where("status", "=", status)
    .where(sql<string>`info->>'full_name'`, "=", name)
    .execute();
  return rows.length;
}
const settleBus = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("a call that saves is one unit of work", () => {
  it("commits the change, its job and its SUCCESS entry together, and publishes after", async () => {
    const name = uniqueName("Saved");
    const answer = await callApi(t.app, "POST", "/api/fixture/rename", token, { full_name: name });
    expect(answer.status, answer.text).toBe(200);
    expect(await fullName()).toBe(name);
    expect(await mailsAbout(name)).toBe(1);
    expect(await entriesOf("SUCCESS", name)).toBe(1);
    await settleBus();
    expect(heard).toContainEqual({ full_name: name });
  });

  it("rolls back the change and its job when the call fails, records FAILURE, publishes nothing", async () => {
    const before = await fullName();
    const name = uniqueName("Refused");
    const answer = await callApi(t.app, "POST", "/api/fixture/rename", token, {
      full_name: name,
      fail: true,
    });
    expect(answer.status).toBe(400);
    expect(await fullName()).toBe(before);
    expect(await mailsAbout(name)).toBe(0);
    expect(await entriesOf("SUCCESS", name)).toBe(0);
    expect(await entriesOf("FAILURE", name)).toBe(1);
    await settleBus();
    expect(heard).not.toContainEqual({ full_name: name });
  });

  it("saves nothing when its audit entry cannot be written", async () => {
    const operator = await buildUser(t, { role: 4, domainId: user.domainId ?? undefined });
    const operatorName = async () =>
      (
        await t.db
          .selectFrom("users")
          .select("full_name")
          .where("id", "=", operator.id)
          .executeTakeFirstOrThrow()
      ).full_name;
    const before = await operatorName();
    const name = uniqueName("Unrecorded");
    await sql`create or replace function refuse_fixture_entry() returns trigger language plpgsql as $$
      begin
        if new.info->>'full_name' like 'Unrecorded%' then raise exception 'audit store refuses'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger refuse_fixture_entry before insert on web_actions
      for each row execute function refuse_fixture_entry()`.execute(t.db);
    try {
      const answer = await callApi(t.app, "POST", `/api/user/${operator.id}`, token, { full_name: name });
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(answer.body).toEqual({ code: "WRITE_DATA_FAILED", message: expect.any(String) });
      expect(await operatorName()).toBe(before);
    } finally {
      await sql`drop trigger refuse_fixture_entry on web_actions`.execute(t.db);
    }
  });
});
