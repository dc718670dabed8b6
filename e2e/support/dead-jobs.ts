// Dead jobs for the browser tests. A mail job dies only after 8 refused attempts spaced by backoff
// (about 5 to 10 minutes of real time, ADR 007), far too slow for a browser test, and no console
// screen can make one. So the server's start seeds the row the dispatcher would leave behind, with the
// error a refusing SMTP server gives; from there everything is real: a person retries it in the
// browser, the dispatcher runs it against the loopback mailbox, and the mail arrives.
import type { Kysely } from "kysely";
import type { DB } from "../../apps/server/src/platform/db/schema";
import { toJsonb } from "../../apps/server/src/platform/db/schema";
import { jobsRepo } from "../../apps/server/src/platform/jobs/jobs.repo";
import { MAIL_SEND_JOB } from "../../apps/server/src/platform/mail/mail.jobs";

/** The address of the dead mail that jobs.spec.ts retries. */
export const RETRIED_MAIL_TO = "retry-me@example.test";
/** The address of the dead mail that stays dead, for the screenshots. */
export const STILL_DEAD_MAIL_TO = "still-dead@example.test";

const MAX_ATTEMPTS = 8;

/** Seeds two dead mail jobs (fixed ids, so a second start adds nothing): the platform's one and one of the demo domain. */
export async function seedDeadMailJobs(db: Kysely<DB>): Promise<void> {
  const demo = await db
    .selectFrom("domains")
    .select("id")
    .where("name", "=", "demo")
    .executeTakeFirstOrThrow();
  const repo = jobsRepo(db);
  const created = new Date(Date.now() - 15 * 60_000);
  const died = new Date(Date.now() - 5 * 60_000);
  const dead = (to: string) => ({
    kind: MAIL_SEND_JOB,
    payload: toJsonb({ to, subject: "Cellfleet: a test of retries", text: "Sent again by a person." }),
    sealed: null,
    state: "dead" as const,
    run_at: died,
    attempts: MAX_ATTEMPTS,
    max_attempts: MAX_ATTEMPTS,
    last_error: `Error: Can't send mail - all recipients were rejected: 550 5.1.1 <${to}>: Recipient address rejected: User unknown in virtual mailbox table`,
    dedupe_key: null,
    create_time: created,
    finish_time: died,
  });
  // A registration key's mail is the platform's own (no domain yet); a password mail is its domain's.
  await repo.insertJob(null, { id: "00000000-0000-4000-8000-00000000dead", ...dead(RETRIED_MAIL_TO) });
  await repo.insertJob(demo.id, { id: "00000000-0000-4000-8000-00000000d1ed", ...dead(STILL_DEAD_MAIL_TO) });
}
