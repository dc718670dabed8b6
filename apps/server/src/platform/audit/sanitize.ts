/** What replaces a hidden value in the audit log. */
export const HIDDEN_VALUE = "***";

// Spec section 2: keys containing "password" or "_id" are hidden, but device_id is kept. Tokens,
// keys of any kind (a device's AES key, a registration key), reset codes and credentials are
// secrets of the same kind, so they are hidden too, as are a notification provider's secrets (a
// webhook's URL is its credential). `has_key`/`has_secret` only say whether one exists.
function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (lower === "device_id" || lower.startsWith("has_")) return false;
  return (
    lower.includes("password") ||
    lower.includes("_id") ||
    lower.includes("token") ||
    lower.includes("secret") ||
    lower.includes("key") ||
    lower.includes("credential") ||
    lower === "webhook_url" ||
    lower === "code" ||
    lower === "confirm"
  );
}

// Secrets that travel inside text whatever field holds it (a pasted CSV of devices with their
// keys, a note quoting a webhook): 64-hex device keys, messenger bot tokens, URL credentials and
// the query of a URL with a secret-looking parameter.
const SECRETS_IN_TEXT: [RegExp, string][] = [
  [/\b[0-9a-fA-F]{64}\b/g, HIDDEN_VALUE],
  [/\b\d{6,12}:[A-Za-z0-9_-]{30,}\b/g, HIDDEN_VALUE],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*:[^\s/@]*@/gi, `$1${HIDDEN_VALUE}@`],
  [/([?&](?:token|key|secret|signature|sig|password|access_token)=)[^&\s#]*/gi, `$1${HIDDEN_VALUE}`],
];

/** `text` with every secret-looking part replaced by HIDDEN_VALUE. */
export function hideSecretsInText(text: string): string {
  let hidden = text;
  for (const [pattern, replacement] of SECRETS_IN_TEXT) hidden = hidden.replace(pattern, replacement);
  return hidden;
}

const TIME_KEY = /(time|date|since|until|_at)$/i;
// Plausible ms timestamps: 2001-09-09 to 2286-11-20. Smaller numbers under a time-like key are seconds.
const MS_MIN = 1e12;
const MS_MAX = 1e13;

function asDate(key: string, value: number): string | number {
  if (!Number.isFinite(value)) return value;
  if (value >= MS_MIN && value < MS_MAX) return new Date(value).toISOString();
  if (TIME_KEY.test(key) && value >= 1e9 && value < MS_MIN) return new Date(value * 1000).toISOString();
  return value;
}

function clean(key: string, value: unknown, depth: number): unknown {
  if (isSecretKey(key)) return HIDDEN_VALUE;
  if (typeof value === "number") return asDate(key, value);
  if (depth > 8) return "…";
  if (Array.isArray(value)) return value.slice(0, 200).map((entry) => clean(key, entry, depth + 1));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(k, v, depth + 1)]));
  }
  if (typeof value === "string") {
    const hidden = hideSecretsInText(value);
    return hidden.length > 2000 ? `${hidden.slice(0, 2000)}…` : hidden;
  }
  return value;
}

/**
 * A request body as the audit log keeps it: secret keys hidden, numeric timestamps as ISO dates,
 * long strings and arrays cut. A body that is not an object is kept under `body`.
 */
export function sanitizeAuditInfo(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) return { body: clean("body", body, 0) };
  return clean("", body, 0) as Record<string, unknown>;
}

/** `POST_devices`: the method and the first path segment after /api/, joined by an underscore. */
export function auditActionName(method: string, url: string): string {
  const path = url.split("?")[0] ?? "";
  const section =
    path
      .replace(/^\/api\//, "")
      .split("/")
      .find((part) => part.length > 0) ?? "root";
  return `${method.toUpperCase()}_${section}`;
}
