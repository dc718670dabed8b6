import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import type { Jobs } from "../jobs/jobs";
import type { Mailer, MailMessage } from "./mailer";

/** The job kind that sends one mail. */
export const MAIL_SEND_JOB = "mail.send";

declare module "../jobs/jobs" {
  interface JobPayloads {
    "mail.send": MailMessage;
  }
}

/**
 * Stands in a queued mail's text for its secret (a password, key or code), which travels sealed
 * beside the payload and is put back only when the mail is sent. Letters and underscores only, so
 * it survives encodeURIComponent inside a link.
 */
export const MAIL_SECRET_PLACEHOLDER = "__CELLFLEET_SEALED_SECRET__";

/** Registers the mail.send handler: a refused or unreachable SMTP server is retried with backoff. */
export function registerMailJobs(jobs: Jobs, mailer: Mailer): void {
  jobs.register(MAIL_SEND_JOB, {
    maxAttempts: 8,
    backoff: { baseMs: 5000, maxMs: 15 * 60_000 },
    timeoutMs: 60_000,
    async handle({ payload, secret }) {
      const text = secret === null ? payload.text : payload.text.replaceAll(MAIL_SECRET_PLACEHOLDER, secret);
      await mailer.send({ to: payload.to, subject: payload.subject, text });
    },
  });
}

/**
 * Queues a mail in the caller's transaction. A mail that carries a secret is built with
 * MAIL_SECRET_PLACEHOLDER where the secret goes, and the secret is passed apart, to be sealed.
 */
export async function enqueueMail(
  jobs: Jobs,
  trx: Kysely<DB>,
  message: MailMessage,
  options: { secret?: string; domainId?: string | null } = {},
): Promise<void> {
  await jobs.enqueue(trx, {
    kind: MAIL_SEND_JOB,
    payload: { to: message.to, subject: message.subject, text: message.text },
    secret: options.secret,
    domainId: options.domainId,
  });
}
