import { randomUUID } from "node:crypto";
import {
  type ChatLookupAnswer,
  type CreateTransportParsed,
  formatMessage,
  NOTIFICATION_TEXTS,
  type TestTransportAnswer,
  type TestTransportParsed,
  type Transport,
  type TransportListRequest,
  type UpdateTransportParsed,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { ProviderError, type ResolvedTransport } from "./providers/provider";
import { sendThroughProvider } from "./providers/send";
import { findBotChats } from "./providers/telegram";
import { webhookHost } from "./providers/webhook";
import { notificationScope, providerOptions, seesNotifications } from "./scope";
import { openSecret, resolveTransport, sealSecret, toTransport, transportLocale } from "./transports.mapper";
import { transportsRepo } from "./transports.repo";

type TransportBody = CreateTransportParsed | UpdateTransportParsed;

/** The settings of a body (everything but the common fields and the secret), as stored. */
function settingsOf(body: TransportBody): Record<string, unknown> {
  switch (body.type) {
    case "telegram":
      return {
        chat_id: body.chat_id,
        message_thread_id: body.message_thread_id,
        silent: body.silent,
        protect_content: body.protect_content,
      };
    case "webhook":
      // The host is kept beside the sealed URL so lists can name it without opening the secret.
      return {
        format: body.format,
        display_name: body.display_name,
        host: body.webhook_url ? webhookHost(body.webhook_url) : undefined,
      };
    case "smtp":
      return {
        host: body.host,
        port: body.port,
        tls: body.tls,
        ssl: body.ssl,
        username: body.username,
        from: body.from,
        to: body.to,
        cc: body.cc,
        bcc: body.bcc,
        subject: body.subject,
      };
  }
}

/** The secret a body carries, or undefined when it leaves the stored one in place. */
function secretOf(body: TransportBody): Record<string, string> | undefined {
  switch (body.type) {
    case "telegram":
      return body.bot_token === undefined ? undefined : { token: body.bot_token };
    case "webhook":
      return body.webhook_url === undefined ? undefined : { webhook_url: body.webhook_url };
    case "smtp":
      return body.password === undefined ? undefined : { password: body.password };
  }
}

/** The 'to' address is required for everyone but superusers (spec section 5). */
function assertRecipients(session: SessionContext, body: TransportBody): void {
  if (body.type === "smtp" && body.to.trim() === "" && session.domainId !== null) {
    throw new AppError("BAD_REQUEST", "body.to: required");
  }
  if (body.type === "smtp" && body.tls && body.ssl) {
    throw new AppError("BAD_REQUEST", "body.ssl: choose TLS (STARTTLS) or SSL (implicit TLS), not both");
  }
}

/** Runs a write of a provider; a name taken in the scope (the unique index) is TRANSPORT_CREATE_ERROR. */
async function writeNamed(name: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("TRANSPORT_CREATE_ERROR", `A provider named ${name} already exists`);
    }
    throw error;
  }
}

/** POST /api/notifications/transports: the scope's providers; empty without the plugin. */
export async function listTransports(
  ctx: AppContext,
  session: SessionContext,
  request: TransportListRequest,
): Promise<Transport[]> {
  if (!seesNotifications(session)) return [];
  const rows = await transportsRepo(ctx.db).findTransports(notificationScope(session), request.search);
  return rows.map(toTransport);
}

/** POST /api/notifications/transport/{id}: one provider; TRANSPORT_NOT_FOUND outside the scope. */
export async function getTransport(ctx: AppContext, session: SessionContext, id: string): Promise<Transport> {
  const row = await transportsRepo(ctx.db).findTransport(notificationScope(session), id);
  if (!row) throw new AppError("TRANSPORT_NOT_FOUND");
  return toTransport(row);
}

/** POST /api/notifications/transport/new: the secret is sealed; a taken name is TRANSPORT_CREATE_ERROR. */
export async function createTransport(
  ctx: AppContext,
  session: SessionContext,
  body: CreateTransportParsed,
): Promise<Transport> {
  assertRecipients(session, body);
  const scope = notificationScope(session);
  const id = randomUUID();
  const secret = secretOf(body);
  await writeNamed(body.name, () =>
    transportsRepo(ctx.db).insertTransport(scope, {
      id,
      name: body.name,
      type: body.type,
      settings: settingsOf(body),
      sealed: secret ? sealSecret(ctx.secrets, secret) : null,
      prefix: body.prefix,
      language: body.language,
      at: ctx.now(),
    }),
  );
  return getTransport(ctx, session, id);
}

/** PUT /api/notifications/transport/{id}: a secret left out stays; the type cannot change. */
export async function updateTransport(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  body: UpdateTransportParsed,
): Promise<Transport> {
  assertRecipients(session, body);
  const scope = notificationScope(session);
  const repo = transportsRepo(ctx.db);
  const existing = await repo.findTransport(scope, id);
  if (!existing) throw new AppError("TRANSPORT_NOT_FOUND");
  if (existing.type !== body.type) throw new AppError("BAD_TYPE", "A provider's type cannot change");
  const secret = secretOf(body);
  const settings = settingsOf(body);
  // A webhook whose URL stays keeps the host it had.
  if (body.type === "webhook" && settings.host === undefined) settings.host = existing.settings.host;
  await writeNamed(body.name, () =>
    repo.updateTransport(scope, id, {
      name: body.name,
      settings,
      sealed: secret
        ? sealSecret(ctx.secrets, { ...openSecret(ctx.secrets, existing.sealed), ...secret })
        : undefined,
      prefix: body.prefix,
      language: body.language,
      at: ctx.now(),
    }),
  );
  return getTransport(ctx, session, id);
}

/** DELETE /api/notifications/transport/{id}: refused while a rule uses it (TRANSPORT_IS_USED). */
export async function deleteTransport(ctx: AppContext, session: SessionContext, id: string): Promise<void> {
  const scope = notificationScope(session);
  const repo = transportsRepo(ctx.db);
  const existing = await repo.findTransport(scope, id);
  if (!existing) throw new AppError("TRANSPORT_NOT_FOUND");
  if (existing.rule_count > 0) throw new AppError("TRANSPORT_IS_USED");
  try {
    await repo.deleteTransport(scope, id);
  } catch (error) {
    // A rule took it between the check and the delete: the foreign key refuses.
    if ((error as { code?: string }).code === "23503") throw new AppError("TRANSPORT_IS_USED");
    throw error;
  }
}

/** The provider a test or lookup body describes: its values, with the stored secret where none was typed. */
async function transportOfBody(
  ctx: AppContext,
  session: SessionContext,
  body: TestTransportParsed,
): Promise<ResolvedTransport> {
  let stored: Record<string, string> = {};
  if (body.transport_id !== undefined) {
    const row = await transportsRepo(ctx.db).findTransport(notificationScope(session), body.transport_id);
    if (!row) throw new AppError("TRANSPORT_NOT_FOUND");
    stored = openSecret(ctx.secrets, row.sealed);
  }
  const secret = { ...stored, ...secretOf(body) };
  return resolveTransport(ctx.secrets, {
    type: body.type,
    settings: settingsOf(body),
    sealed: sealSecret(ctx.secrets, secret),
  });
}

/** The answer for a provider's refusal: its reason and its words. */
function failureAnswer(error: unknown): { reason: TestTransportAnswer["reason"]; description: string } {
  if (error instanceof ProviderError) return { reason: error.reason, description: error.message };
  throw error;
}

/**
 * POST /api/notifications/transport/test: one test message through the form's provider, now. The
 * answer says whether it went and, if not, why (chat not found, invalid token, bad configuration,
 * or the provider's words); it is not an error answer, since the request itself was fine.
 */
export async function testTransport(
  ctx: AppContext,
  session: SessionContext,
  body: TestTransportParsed,
): Promise<TestTransportAnswer> {
  assertRecipients(session, body);
  const transport = await transportOfBody(ctx, session, body);
  const texts = NOTIFICATION_TEXTS[transportLocale(body)];
  const prefix = body.prefix.trim() ? `${body.prefix.trim()} ` : "";
  const title = `${prefix}${formatMessage(texts.testTitle, { name: body.name })}`;
  try {
    const sent = await sendThroughProvider(
      transport,
      { title, text: `${title}\n\n${texts.testText}` },
      providerOptions(ctx, { fallbackRecipients: session.user.email ? [session.user.email] : [] }),
    );
    return { ok: true, reason: null, description: sent.answer };
  } catch (error) {
    return { ok: false, ...failureAnswer(error) };
  }
}

/**
 * POST /api/notifications/transport/chats: the chats the bot heard from (getUpdates). None: the
 * person writes to the bot (or adds it to the group and posts there) and looks again.
 */
export async function lookupChats(
  ctx: AppContext,
  session: SessionContext,
  body: { bot_token?: string; transport_id?: string },
): Promise<ChatLookupAnswer> {
  let token = body.bot_token;
  if (token === undefined && body.transport_id !== undefined) {
    const row = await transportsRepo(ctx.db).findTransport(notificationScope(session), body.transport_id);
    if (row?.type !== "telegram") throw new AppError("TRANSPORT_NOT_FOUND");
    token = openSecret(ctx.secrets, row.sealed).token;
  }
  if (!token) throw new AppError("NOT_ENOUGH_PARAMS", "body.bot_token: required");
  try {
    const chats = await findBotChats(token, providerOptions(ctx));
    return { ok: true, chats, reason: null, description: "" };
  } catch (error) {
    return { ok: false, chats: [], ...failureAnswer(error) };
  }
}
