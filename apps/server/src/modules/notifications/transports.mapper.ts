import {
  type Locale,
  LocaleSchema,
  SmtpSettingsSchema,
  TelegramSettingsSchema,
  TRANSPORT_UNHEALTHY_AFTER_FAILURES,
  type Transport,
  WebhookSettingsSchema,
} from "@cellfleet/contract";
import type { PlatformSecrets } from "../../platform/secrets";
import type { ResolvedTransport, TransportSecrets } from "./providers/provider";
import type { TransportWithUseRow } from "./transports.repo";

/** The one mapper of a provider row to the answer: settings, whether a secret is set, health. */
export function toTransport(row: TransportWithUseRow): Transport {
  const settings = row.settings as Record<string, unknown>;
  return {
    _id: row.id,
    name: row.name,
    type: row.type,
    prefix: row.prefix,
    language: LocaleSchema.catch("ru").parse(row.language),
    telegram: row.type === "telegram" ? TelegramSettingsSchema.parse(settings) : null,
    webhook:
      row.type === "webhook"
        ? { ...WebhookSettingsSchema.parse(settings), host: String(settings.host ?? "") }
        : null,
    smtp: row.type === "smtp" ? SmtpSettingsSchema.parse(settings) : null,
    has_secret: row.sealed !== null,
    health: {
      healthy: row.failures < TRANSPORT_UNHEALTHY_AFTER_FAILURES,
      failures: row.failures,
      last_error: row.last_error,
      last_failure_time: row.last_failure_at?.getTime() ?? null,
      last_success_time: row.last_success_at?.getTime() ?? null,
    },
    rules: row.rule_count,
    create_time: row.create_time.getTime(),
  };
}

/** The language a provider writes in. */
export function transportLocale(row: { language: string }): Locale {
  return LocaleSchema.catch("ru").parse(row.language);
}

/** Seals a provider's secret for the database. */
export function sealSecret(secrets: PlatformSecrets, secret: Record<string, string>): string {
  return secrets.seal("notification-secret", JSON.stringify(secret));
}

/** Opens a provider's stored secret (empty fields when none is stored). */
export function openSecret(secrets: PlatformSecrets, sealed: string | null): Record<string, string> {
  if (sealed === null) return {};
  return JSON.parse(secrets.open("notification-secret", sealed)) as Record<string, string>;
}

/** A stored provider, ready to send: settings parsed, secret opened. */
export function resolveTransport(
  secrets: PlatformSecrets,
  row: Pick<TransportWithUseRow, "type" | "settings" | "sealed">,
): ResolvedTransport {
  const secret = openSecret(secrets, row.sealed);
  switch (row.type) {
    case "telegram":
      return {
        type: "telegram",
        settings: TelegramSettingsSchema.parse(row.settings),
        secret: { token: secret.token ?? "" } satisfies TransportSecrets["telegram"],
      };
    case "webhook":
      return {
        type: "webhook",
        settings: WebhookSettingsSchema.parse(row.settings),
        secret: { webhook_url: secret.webhook_url ?? "" },
      };
    case "smtp":
      return {
        type: "smtp",
        settings: SmtpSettingsSchema.parse(row.settings),
        secret: { password: secret.password ?? "" },
      };
  }
}
