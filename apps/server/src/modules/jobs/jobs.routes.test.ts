import { randomUUID } from "node:crypto";
import { JobRetryAnswerSchema, type JobState, JobsAnswerSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJsonb } from "../../platform/db/schema";
import { MAIL_SEND_JOB } from "../../platform/mail/mail.jobs";
import { callApi } from "../../test/accounting-helpers";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let domainId: string;
let adminToken: string;
let otherAdminToken: string;
let rootToken: string;
let operatorToken: string;

const api = (url: string, token: string | undefined, payload?: object) =>
  callApi(t.app, "POST", url, token, payload);

/** A job row as a dispatcher would have left it. */
async function insertJob(
  state: JobState,
  domain: string | null,
  dedupeKey: string | null = null,
): Promise<string> {
  const id = randomUUID();
  const now = t.clock.now();
  await t.db
    .insertInto("jobs")
    .values({
      id,
      kind: MAIL_SEND_JOB,
      domain_id: domain,
      payload: toJsonb({ to: "x@example.com", subject: "s", text: "t" }),
      sealed: null,
      state,
      run_at: now,
      attempts: state === "queued" ? 0 : 8,
      max_attempts: 8,
      last_error: state === "dead" ? "WRITE_DATA_FAILED: connection refused" : null,
      dedupe_key: dedupeKey,
      create_time: now,
      finish_time: state === "dead" ? now : null,
    })
    .execute();
  return id;
}

beforeAll(async () => {
  // The dispatcher stays off: the states these tests set must not move under them.
  t = await createTestApp({ runJobs: false });
  domainId = (await buildDomain(t)).id;
  adminToken = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  otherAdminToken = await signIn(t.app, await buildUser(t, { role: 2 }));
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  operatorToken = await signIn(t.app, await buildUser(t, { role: 3, domainId }));
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/jobs/", () => {
  it("refuses anonymous callers (401) and roles other than superuser and admin (403)", async () => {
    expect((await api("/api/jobs/", undefined, {})).status).toBe(401);
    const operator = await api("/api/jobs/", operatorToken, {});
    expect(operator.status).toBe(403);
    expect(operator.body.code).toBe("PERMISSION_DENIED");
  });

  it("lists the admin's domain's jobs only, and every job for a superuser, filtered by state", async () => {
    const own = await insertJob("dead", domainId);
    const platform = await insertJob("dead", null);
    const adminList = JobsAnswerSchema.parse((await api("/api/jobs/", adminToken, { state: ["dead"] })).body);
    expect(adminList.items.map((job) => job._id)).toContain(own);
    expect(adminList.items.map((job) => job._id)).not.toContain(platform);
    expect(adminList.items.every((job) => job.domain_id === domainId && job.state === "dead")).toBe(true);
    const other = JobsAnswerSchema.parse((await api("/api/jobs/", otherAdminToken, {})).body);
    expect(other.items.map((job) => job._id)).not.toContain(own);
    const all = JobsAnswerSchema.parse(
      (await api("/api/jobs/", rootToken, { state: ["dead"], limit: 1000 })).body,
    );
    expect(all.items.map((job) => job._id)).toEqual(expect.arrayContaining([own, platform]));
    const queued = JobsAnswerSchema.parse((await api("/api/jobs/", rootToken, { state: ["queued"] })).body);
    expect(queued.items.map((job) => job._id)).not.toContain(own);
  });

  it("answers 400 for a state that does not exist", async () => {
    const answer = await api("/api/jobs/", rootToken, { state: ["lost"] });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("BAD_REQUEST");
  });
});

describe("POST /api/job/{id}/retry", () => {
  it("puts a dead job back in the queue with its attempts reset, and records who did it", async () => {
    const id = await insertJob("dead", domainId);
    const answer = await api(`/api/job/${id}/retry`, adminToken, {});
    expect(answer.status, answer.text).toBe(200);
    const { job } = JobRetryAnswerSchema.parse(answer.body);
    expect(job).toMatchObject({ _id: id, state: "queued", attempts: 0, finish_time: null });
    await t.app.auditLog.settle();
    const entry = await t.db
      .selectFrom("web_actions")
      .select(["action", "status"])
      .where("domain_id", "=", domainId)
      .orderBy("create_time", "desc")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ action: "POST_job", status: "SUCCESS" });
  });

  it("answers 404 for another domain's job and 400 for a job that is not failed or dead", async () => {
    const foreign = await insertJob("dead", domainId);
    expect((await api(`/api/job/${foreign}/retry`, otherAdminToken, {})).body.code).toBe("TASK_NOT_FOUND");
    expect((await api(`/api/job/${randomUUID()}/retry`, rootToken, {})).body.code).toBe("TASK_NOT_FOUND");
    const queued = await insertJob("queued", domainId);
    const answer = await api(`/api/job/${queued}/retry`, adminToken, {});
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("BAD_REQUEST");
    expect((await api(`/api/job/${foreign}/retry`, operatorToken, {})).status).toBe(403);
  });

  it("refuses to revive a job whose dedupe key a live job holds (409)", async () => {
    const key = `report-${randomUUID()}`;
    const dead = await insertJob("dead", null, key);
    await insertJob("queued", null, key);
    const answer = await api(`/api/job/${dead}/retry`, rootToken, {});
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe("KEY_ALREADY_EXISTS");
  });
});
