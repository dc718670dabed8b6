import { can } from "@cellfleet/contract";
import { subjectOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { ProviderOptions } from "./providers/provider";

/**
 * Whose rules and providers a person works on: the domain's, or (superusers, who belong to none)
 * the installation's own, stored with a null domain.
 */
export function notificationScope(session: SessionContext): string | null {
  return session.domainId;
}

/** Whether the person's lists hold anything: without the notification plugin they answer empty (spec §6). */
export function seesNotifications(session: SessionContext): boolean {
  return can(subjectOf(session), "notifications.view");
}

/** The providers' server-side settings as the clients take them. */
export function providerOptions(ctx: AppContext, extra: Partial<ProviderOptions> = {}): ProviderOptions {
  return {
    telegramApiUrl: ctx.config.notifications.telegramApiUrl,
    webhookAllowPrivate: ctx.config.notifications.webhookAllowPrivate,
    ...extra,
  };
}
