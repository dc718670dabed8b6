import { parseEmailList, type SmtpSettings } from "@cellfleet/contract";
import nodemailer from "nodemailer";
import {
  ProviderError,
  type ProviderMessage,
  type ProviderOptions,
  type ProviderSuccess,
  scrubSecrets,
} from "./provider";

// Mail through the provider's own SMTP server (nodemailer). `ssl` is implicit TLS (port 465),
// `tls` requires STARTTLS (without either, STARTTLS is still used when the server offers it).
// Every wait is bounded, so a server that accepts the connection and says nothing cannot hold a
// delivery job until its lease runs out.

/** Connecting and the server's greeting, each at most. */
export const SMTP_CONNECT_TIMEOUT_MS = 10_000;
/** Silence on an open connection at most. */
export const SMTP_SOCKET_TIMEOUT_MS = 20_000;

interface SmtpErrorLike {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

/** Sends one mail to the provider's recipients (or, with none, to `fallbackRecipients`). */
export async function sendSmtp(
  settings: SmtpSettings,
  password: string,
  message: ProviderMessage,
  options: ProviderOptions & { tlsCa?: string | Buffer },
): Promise<ProviderSuccess> {
  const to = settings.to ? parseEmailList(settings.to) : [...(options.fallbackRecipients ?? [])];
  if (to.length === 0) throw new ProviderError("bad_configuration", "The mail has no recipient ('to')");
  const connectMs = options.timeouts?.smtpConnectMs ?? SMTP_CONNECT_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.ssl,
    requireTLS: settings.tls && !settings.ssl,
    auth: settings.username ? { user: settings.username, pass: password } : undefined,
    connectionTimeout: connectMs,
    greetingTimeout: connectMs,
    socketTimeout: options.timeouts?.smtpSocketMs ?? SMTP_SOCKET_TIMEOUT_MS,
    tls: options.tlsCa ? { ca: options.tlsCa } : undefined,
  });
  const onAbort = () => transport.close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const info = await transport.sendMail({
      from: settings.from,
      to,
      cc: settings.cc ? parseEmailList(settings.cc) : undefined,
      bcc: settings.bcc ? parseEmailList(settings.bcc) : undefined,
      subject: settings.subject.trim() || message.title,
      text: message.text,
    });
    return { statusCode: 250, answer: scrubSecrets(String(info.response ?? "250 OK"), [password]) };
  } catch (error) {
    const failure = error as SmtpErrorLike;
    const words = failure.response ?? failure.message ?? String(error);
    const reason = failure.code === "EAUTH" || failure.code === "EENVELOPE" ? "bad_configuration" : "error";
    throw new ProviderError(
      reason,
      scrubSecrets(`${failure.code ? `${failure.code}: ` : ""}${words}`, [password]),
      failure.responseCode ?? null,
    );
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    transport.close();
  }
}
