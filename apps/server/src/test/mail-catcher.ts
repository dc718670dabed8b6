import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { SmtpConfig } from "../platform/config";

/** A mail the catcher received. */
export interface CaughtMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every mail it receives, for tests of the e-mail flows. */
export interface MailCatcher {
  /** smtp://127.0.0.1:<port> */
  url: string;
  mails: CaughtMail[];
  /** Waits (at most `timeoutMs`) for a mail to `to` beyond the first `after` ones to it. */
  waitFor(to: string, options?: { after?: number; timeoutMs?: number }): Promise<CaughtMail>;
  close(): Promise<void>;
}

/** Starts the catcher on a free port. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 5000);
      const address = to.toLowerCase();
      for (;;) {
        const found = mails.filter((mail) => mail.to.includes(address));
        const next = found[options.after ?? 0];
        if (next) return next;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within the timeout`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded text body of a caught mail (nodemailer sends text as quoted-printable). */
export function mailText(mail: CaughtMail): string {
  const body = mail.raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join("\n\n");
  return body
    .replace(/=\r?\n/g, "")
    .replace(/(?:=[0-9A-F]{2})+/g, (match) => Buffer.from(match.replace(/=/g, ""), "hex").toString("utf8"));
}

/** The server's mail settings that send everything to the catcher. */
export function catcherSmtp(catcher: MailCatcher): SmtpConfig {
  return {
    url: catcher.url,
    host: undefined,
    port: 25,
    user: undefined,
    password: undefined,
    from: "cellfleet@test.local",
  };
}
