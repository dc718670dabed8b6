import type { Locale, Transport, TransportType, UpdateTransport, WebhookFormat } from "@cellfleet/contract";

/** The provider form's values, every type's fields at once (the type picks which are sent). */
export interface TransportFormValues {
  type: TransportType;
  name: string;
  prefix: string;
  language: Locale;
  chat_id: string;
  message_thread_id: string;
  silent: boolean;
  protect_content: boolean;
  bot_token: string;
  webhook_url: string;
  format: WebhookFormat;
  display_name: string;
  host: string;
  port: string;
  tls: boolean;
  ssl: boolean;
  username: string;
  password: string;
  from: string;
  to: string;
  cc: string;
  bcc: string;
  subject: string;
}

/** The form of a provider (or a new one); secrets start empty: they are never sent back. */
export function toTransportForm(transport: Transport | null, language: Locale): TransportFormValues {
  const telegram = transport?.telegram;
  const webhook = transport?.webhook;
  const smtp = transport?.smtp;
  return {
    type: transport?.type ?? "telegram",
    name: transport?.name ?? "",
    prefix: transport?.prefix ?? "",
    language: transport?.language ?? language,
    chat_id: telegram?.chat_id ?? "",
    message_thread_id: telegram?.message_thread_id?.toString() ?? "",
    silent: telegram?.silent ?? false,
    protect_content: telegram?.protect_content ?? false,
    bot_token: "",
    webhook_url: "",
    format: webhook?.format ?? "slack",
    display_name: webhook?.display_name ?? "",
    host: smtp?.host ?? "",
    port: String(smtp?.port ?? 587),
    tls: smtp?.tls ?? true,
    ssl: smtp?.ssl ?? false,
    username: smtp?.username ?? "",
    password: "",
    from: smtp?.from ?? "",
    to: smtp?.to ?? "",
    cc: smtp?.cc ?? "",
    bcc: smtp?.bcc ?? "",
    subject: smtp?.subject ?? "",
  };
}

/** A secret typed in the form, or nothing (on a change, an empty field keeps the stored secret). */
function secret(value: string, isNew: boolean): string | undefined {
  return value.trim() === "" && !isNew ? undefined : value.trim();
}

/**
 * The body of the form's type. A change sends only the secrets typed in; a new provider has them
 * all (the form requires them), so the same shape serves create.
 */
export function toTransportBody(values: TransportFormValues, isNew: boolean): UpdateTransport {
  const common = { name: values.name.trim(), prefix: values.prefix.trim(), language: values.language };
  switch (values.type) {
    case "telegram": {
      const thread = values.message_thread_id.trim();
      return {
        type: "telegram",
        ...common,
        chat_id: values.chat_id.trim(),
        message_thread_id: thread === "" ? null : Number(thread),
        silent: values.silent,
        protect_content: values.protect_content,
        bot_token: secret(values.bot_token, isNew),
      };
    }
    case "webhook":
      return {
        type: "webhook",
        ...common,
        format: values.format,
        display_name: values.display_name.trim(),
        webhook_url: secret(values.webhook_url, isNew),
      };
    case "smtp":
      return {
        type: "smtp",
        ...common,
        host: values.host.trim(),
        port: Number(values.port.trim()),
        tls: values.tls,
        ssl: values.ssl,
        username: values.username.trim(),
        from: values.from.trim(),
        to: values.to.trim(),
        cc: values.cc.trim(),
        bcc: values.bcc.trim(),
        subject: values.subject.trim(),
        password: values.password === "" && !isNew ? undefined : values.password,
      };
  }
}
