import type { WebhookFormat, WebhookSettings } from "@cellfleet/contract";
import { assertHostAllowed, guardedLookup, RefusedAddressError } from "./address-guard";
import { HttpRequestError, postJson, retryAfterMs } from "./http-client";
import {
  ProviderError,
  type ProviderMessage,
  type ProviderOptions,
  type ProviderSuccess,
  scrubSecrets,
} from "./provider";

// Incoming webhooks of chat servers. Each takes a JSON body with `text`:
// - Slack (https://api.slack.com/messaging/webhooks): `text` in mrkdwn (& < > escaped), `username`
//   honoured by legacy webhooks; answers 200 "ok", or 400 invalid_payload, 403 action_prohibited,
//   404 channel_not_found, 410 channel_is_archived, 429 with Retry-After.
// - Mattermost (developers.mattermost.com/integrate/webhooks/incoming): `text` in Markdown and
//   `username`; answers 200 "ok", or an error JSON `{ id, message, status_code }`.
// - Rocket.Chat (incoming WebHook integration): `text` and `alias` for the sender's name; answers
//   200 `{ "success": true }`, or `{ "success": false, "error": … }`.
// The URL is the credential, so it is never stored in clear, shown, or written into an answer.

/** A text longer than this is cut (Slack truncates messages above 40,000 characters). */
export const WEBHOOK_MAX_TEXT = 4000;
/** When a 429 names no wait. */
const DEFAULT_RETRY_AFTER_MS = 30_000;

/** Slack's three control characters, escaped as its message formatting asks. */
function escapeSlack(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** The body a chat of `format` expects. */
export function webhookBody(
  format: WebhookFormat,
  displayName: string,
  text: string,
): Record<string, string> {
  const cut = text.slice(0, WEBHOOK_MAX_TEXT);
  const name = displayName.trim();
  switch (format) {
    case "slack":
      return { text: escapeSlack(cut), ...(name ? { username: name } : {}) };
    case "mattermost":
      return { text: cut, ...(name ? { username: name } : {}) };
    case "rocketchat":
      return { text: cut, ...(name ? { alias: name } : {}) };
  }
}

/** Posts a message to a webhook chat; a refusal becomes a ProviderError in the chat's own words. */
export async function sendWebhook(
  settings: WebhookSettings,
  webhookUrl: string,
  message: ProviderMessage,
  options: ProviderOptions,
): Promise<ProviderSuccess> {
  const scrub = (text: string) => scrubSecrets(text, [webhookUrl, safePath(webhookUrl)]);
  let url: URL;
  try {
    url = new URL(webhookUrl);
  } catch {
    throw new ProviderError("bad_configuration", "The webhook URL is not a URL");
  }
  let answer: Awaited<ReturnType<typeof postJson>>;
  try {
    assertHostAllowed(url, options.webhookAllowPrivate);
    answer = await postJson(url, webhookBody(settings.format, settings.display_name, message.text), {
      timeoutMs: options.timeouts?.httpMs,
      signal: options.signal,
      lookup: guardedLookup(options.webhookAllowPrivate),
    });
  } catch (error) {
    if (error instanceof RefusedAddressError) throw new ProviderError("bad_configuration", error.message);
    // The guarded lookup's refusal arrives as the request's error.
    if (error instanceof HttpRequestError && error.code === "RefusedAddressError") {
      throw new ProviderError("bad_configuration", scrub(error.message));
    }
    const text = error instanceof HttpRequestError ? `${error.code}: ${error.message}` : String(error);
    throw new ProviderError("error", scrub(`The chat server is unreachable (${text})`));
  }
  const body = scrub(answer.body.trim()).slice(0, 500);
  if (answer.status === 429) {
    const wait = retryAfterMs(answer.headers["retry-after"], Date.now()) ?? DEFAULT_RETRY_AFTER_MS;
    throw new ProviderError("error", `429 ${body || "Too Many Requests"}`, 429, wait);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new ProviderError("error", `${answer.status} ${describeRefusal(body)}`, answer.status);
  }
  if (settings.format === "rocketchat" && /"success"\s*:\s*false/.test(body)) {
    throw new ProviderError("error", `${answer.status} ${describeRefusal(body)}`, answer.status);
  }
  return { statusCode: answer.status, answer: body || "ok" };
}

/** A chat's error body in short: Mattermost's `message`, Rocket.Chat's `error`, else the text. */
function describeRefusal(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === "string") return parsed.message;
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    // Slack answers plain words such as invalid_payload.
  }
  return body || "(no answer)";
}

/** The URL's path and query, which hold the webhook's key, for scrubbing. */
function safePath(webhookUrl: string): string | undefined {
  try {
    const url = new URL(webhookUrl);
    const path = `${url.pathname}${url.search}`;
    return path.length > 1 ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The host of a webhook URL, the only part of it an answer may show. */
export function webhookHost(webhookUrl: string): string {
  try {
    return new URL(webhookUrl).host;
  } catch {
    return "";
  }
}
