import nodemailer, { type Transporter } from "nodemailer";
import type { SmtpConfig } from "../config";
import { AppError } from "../errors";

/** A mail to send: plain text, one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** A file sent with a mail (the monthly uptime report's PDF). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** Sends mail over SMTP; `isConfigured` is false when the configuration names no SMTP server. */
export interface Mailer {
  readonly isConfigured: boolean;
  /** Sends the mail; throws OPERATION_IS_NOT_SUPPORTED without SMTP, WRITE_DATA_FAILED when the server refuses. */
  send(message: MailMessage, attachments?: readonly MailAttachment[]): Promise<void>;
  close(): void;
}

/** The mailer of the configuration's SMTP settings (nodemailer, one pooled-less transport). */
export function createMailer(smtp: SmtpConfig | null): Mailer {
  let transport: Transporter | null = null;
  if (smtp) {
    const auth = smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined;
    transport = smtp.url
      ? nodemailer.createTransport(smtp.url)
      : nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: smtp.port === 465, auth });
  }
  return {
    isConfigured: transport !== null,
    async send(message, attachments = []) {
      if (!transport || !smtp) {
        throw new AppError(
          "OPERATION_IS_NOT_SUPPORTED",
          "E-mail is not configured on this server (SMTP_URL or SMTP_HOST)",
        );
      }
      try {
        await transport.sendMail({
          from: smtp.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
        });
      } catch (error) {
        throw new AppError("WRITE_DATA_FAILED", `The mail could not be sent: ${(error as Error).message}`);
      }
    },
    close() {
      transport?.close();
    },
  };
}
