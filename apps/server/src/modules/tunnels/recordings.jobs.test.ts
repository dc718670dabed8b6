import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { insertDevice } from "../ingest/ingest.test-support";
import { RECORDINGS_RETENTION_JOB, trimRecordings } from "./recordings.jobs";
import { recordingKey } from "./tunnels.service";

// Recordings kept as the domain says (ADR 038): removed from storage once their session ended more
// than `remote_access.recording_days` ago (90 when a domain never set it), the session then offering
// no replay; the rest stay.

const DAY_MS = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** An ended session of a new router in `domainId`, `daysAgo` days ago, with its recording stored. */
async function recordedSession(domainId: string, authorId: string, daysAgo: number): Promise<string> {
  const device = await insertDevice(t, domainId);
  const id = crypto.randomUUID();
  const ended = new Date(t.ctx.now().getTime() - daysAgo * DAY_MS);
  await t.db
    .insertInto("tunnel_sessions")
    .values({
      id,
      domain_id: domainId,
      device_id: device.id,
      kind: "terminal",
      state: "ended",
      minutes: 30,
      author_id: authorId,
      created_at: ended,
      opened_at: ended,
      ended_at: ended,
      end_reason: "closed",
      has_recording: true,
    })
    .execute();
  await t.storage.put(recordingKey(id), Readable.from(['{"version":2,"width":80,"height":24}\n']));
  return id;
}

const hasRecording = async (id: string) =>
  (
    await t.db
      .selectFrom("tunnel_sessions")
      .select("has_recording")
      .where("id", "=", id)
      .executeTakeFirstOrThrow()
  ).has_recording;

describe("the recordings' retention", () => {
  it("removes those past their domain's days, keeps the rest, and runs hourly on the jobs", async () => {
    const unset = await buildDomain(t);
    const short = await buildDomain(t);
    await t.db
      .updateTable("domains")
      .set({ settings: JSON.stringify({ remote_access: { recording_days: 5 } }) })
      .where("id", "=", short.id)
      .execute();
    const author = (await buildUser(t, { role: 2, domainId: unset.id })).id;
    const other = (await buildUser(t, { role: 2, domainId: short.id })).id;
    const old = await recordedSession(unset.id, author, 91);
    const recent = await recordedSession(unset.id, author, 30);
    const pastShort = await recordedSession(short.id, other, 6);
    const withinShort = await recordedSession(short.id, other, 4);

    expect(await trimRecordings(t.ctx)).toBeGreaterThanOrEqual(2);
    expect(await hasRecording(old)).toBe(false);
    expect(await t.storage.exists(recordingKey(old))).toBe(false);
    expect(await hasRecording(pastShort)).toBe(false);
    expect(await t.storage.exists(recordingKey(pastShort))).toBe(false);
    expect(await hasRecording(recent)).toBe(true);
    expect(await t.storage.exists(recordingKey(recent))).toBe(true);
    expect(await hasRecording(withinShort)).toBe(true);
    // A second run finds nothing more to do.
    expect(await trimRecordings(t.ctx)).toBe(0);
    expect(t.ctx.jobs.schedules().map((schedule) => schedule.kind)).toContain(RECORDINGS_RETENTION_JOB);
  });
});
