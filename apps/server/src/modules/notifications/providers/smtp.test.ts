import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SmtpSettings } from "@cellfleet/contract";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerRefusal } from "../notifications.test-support";
import { sendSmtp } from "./smtp";

// The SMTP provider against a real SMTP server (smtp-server) on loopback: plain, STARTTLS required,
// implicit TLS, a refused login, and a server that accepts the connection and never greets.

interface Received {
  from: string;
  to: string[];
  raw: string;
  secure: boolean;
  user: string | null;
}

const dir = mkdtempSync(path.join(tmpdir(), "cellfleet-smtp-"));
let key: Buffer;
let cert: Buffer;
const servers: Array<{ close: () => Promise<void> }> = [];

beforeAll(() => {
  // A certificate for 127.0.0.1 that the client trusts through `tlsCa`, as it would a real CA's.
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  key = readFileSync(path.join(dir, "key.pem"));
  cert = readFileSync(path.join(dir, "cert.pem"));
});
afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function startSmtp(
  options: Partial<SMTPServerOptions> = {},
): Promise<{ port: number; mails: Received[] }> {
  const mails: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    key,
    cert,
    authOptional: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "robot" && auth.password === "s3cret-pass") callback(null, { user: "robot" });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          secure: session.secure,
          user: (session.user as string | undefined) ?? null,
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return { port: (server.server.address() as AddressInfo).port, mails };
}

const settings = (port: number, extra: Partial<SmtpSettings> = {}): SmtpSettings => ({
  host: "127.0.0.1",
  port,
  tls: false,
  ssl: false,
  username: "",
  from: "cellfleet@example.com",
  to: "noc@example.com",
  cc: "",
  bcc: "",
  subject: "",
  ...extra,
});
const options = { telegramApiUrl: "", webhookAllowPrivate: false };
const message = { title: "Rule: 1 started", text: "R1: status critical" };

describe("SMTP", () => {
  it("sends to, cc and bcc with the generated subject, or the custom one", async () => {
    const smtp = await startSmtp({ disabledCommands: ["STARTTLS"] });
    const sent = await sendSmtp(
      settings(smtp.port, { cc: "a@example.com; b@example.com", bcc: "c@example.com" }),
      "",
      message,
      options,
    );
    expect(sent.statusCode).toBe(250);
    expect(smtp.mails[0]?.to.sort()).toEqual([
      "a@example.com",
      "b@example.com",
      "c@example.com",
      "noc@example.com",
    ]);
    expect(smtp.mails[0]?.raw).toContain("Subject: Rule: 1 started");
    expect(smtp.mails[0]?.raw).not.toMatch(/^Bcc:/m);
    await sendSmtp(settings(smtp.port, { subject: "Cellfleet alert" }), "", message, options);
    expect(smtp.mails[1]?.raw).toContain("Subject: Cellfleet alert");
  });

  it("requires STARTTLS when TLS is on, and logs in", async () => {
    const smtp = await startSmtp();
    await sendSmtp(settings(smtp.port, { tls: true, username: "robot" }), "s3cret-pass", message, {
      ...options,
      tlsCa: cert,
    });
    expect(smtp.mails[0]).toMatchObject({ secure: true, user: "robot" });
    const plain = await startSmtp({ disabledCommands: ["STARTTLS"] });
    const refused = await providerRefusal(
      sendSmtp(settings(plain.port, { tls: true }), "", message, { ...options, tlsCa: cert }),
    );
    expect(refused.message).toMatch(/^ETLS: /);
    expect(plain.mails).toHaveLength(0);
  });

  it("speaks implicit TLS when SSL is on", async () => {
    const smtp = await startSmtp({ secure: true });
    await sendSmtp(settings(smtp.port, { ssl: true }), "", message, { ...options, tlsCa: cert });
    expect(smtp.mails[0]?.secure).toBe(true);
  });

  it("answers a refused login as a bad configuration, without the password", async () => {
    const smtp = await startSmtp({ disabledCommands: ["STARTTLS"], allowInsecureAuth: true });
    const refused = await providerRefusal(
      sendSmtp(settings(smtp.port, { username: "robot" }), "wrong-pass-123", message, options),
    );
    expect(refused.reason).toBe("bad_configuration");
    expect(refused.statusCode).toBe(535);
    expect(refused.message).not.toContain("wrong-pass-123");
  });

  it("gives up on a server that never greets, within its bound", async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    servers.push({ close: () => new Promise<void>((resolve) => silent.close(() => resolve())) });
    const port = (silent.address() as AddressInfo).port;
    const started = Date.now();
    const refused = await providerRefusal(
      sendSmtp(settings(port), "", message, {
        ...options,
        timeouts: { smtpConnectMs: 300, smtpSocketMs: 300 },
      }),
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expect(refused.message).toMatch(/ETIMEDOUT|Greeting never received|timeout/i);
  });

  it("needs a recipient: the 'to', or for superusers' providers their own addresses", async () => {
    const smtp = await startSmtp({ disabledCommands: ["STARTTLS"] });
    const none = await providerRefusal(sendSmtp(settings(smtp.port, { to: "" }), "", message, options));
    expect(none.reason).toBe("bad_configuration");
    await sendSmtp(settings(smtp.port, { to: "" }), "", message, {
      ...options,
      fallbackRecipients: ["root@example.com"],
    });
    expect(smtp.mails.at(-1)?.to).toEqual(["root@example.com"]);
  });
});
