import { createPublicKey } from "node:crypto";
import { z } from "zod";
import { parseS3Url, S3UrlError } from "./storage/s3-url";

// The values of single settings, checked as EnvSchema (config.ts) reads them.

/** An unset or blank variable counts as absent, so `PORT=` falls back to the default. */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema,
  );
}

export function urlWithProtocols(protocols: readonly string[]) {
  return z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
    );
}

/** S3_URL: checked by the storage's own parser, whose messages never repeat the secret. */
export const S3UrlSchema = z
  .string()
  .trim()
  .superRefine((value, context) => {
    try {
      parseS3Url(value);
    } catch (error) {
      if (!(error instanceof S3UrlError)) throw error;
      context.addIssue({ code: "custom", message: error.message });
    }
  });

/** The relying party of passkeys at an address: none at an IP address (browsers refuse it). */
export function webauthnOf(address: string): { origin: string; rpId: string } | null {
  const url = new URL(address);
  const host = url.hostname;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith("[")) return null;
  return { origin: url.origin, rpId: host };
}

/**
 * MQTT_PUBLIC_URL: the broker's addresses as routers reach them, comma-separated, each `mqtt://host:port`
 * or `mqtts://host:port` (TLS), no credentials or path.
 */
export const MqttPublicUrlsSchema = z
  .string()
  .trim()
  .transform((value) =>
    value
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== ""),
  )
  .superRefine((urls, context) => {
    if (urls.length === 0) context.addIssue({ code: "custom", message: "must name at least one address" });
    for (const value of urls) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        context.addIssue({ code: "custom", message: `${value} is not a URL` });
        continue;
      }
      if (url.protocol !== "mqtt:" && url.protocol !== "mqtts:")
        context.addIssue({ code: "custom", message: `${value} must start with mqtt:// or mqtts://` });
      else if (url.username || url.password || (url.pathname !== "" && url.pathname !== "/"))
        context.addIssue({ code: "custom", message: `${value} must be only scheme://host:port` });
    }
  });

/**
 * The public half of the development licence key pair (apps/license-service/dev): the default, so
 * the demo activates against `npm run license:dev`. Production sets the vendor's own keys.
 */
export const DEV_LICENSE_PUBLIC_KEY = "MCowBQYDK2VwAyEAyq1T7KGEKCMC6iIwhcL5m/U1JSpQlZhHQaO22KYgcNs=";

/** LICENSE_PUBLIC_KEYS: Ed25519 public keys (SPKI DER, base64), comma-separated (several while rotating). */
export const LicensePublicKeysSchema = z
  .string()
  .trim()
  .transform((value) =>
    value
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== ""),
  )
  .superRefine((keys, context) => {
    if (keys.length === 0) context.addIssue({ code: "custom", message: "must name at least one key" });
    for (const key of keys) {
      try {
        const parsed = createPublicKey({ key: Buffer.from(key, "base64"), format: "der", type: "spki" });
        if (parsed.asymmetricKeyType !== "ed25519") throw new Error("not Ed25519");
      } catch {
        context.addIssue({
          code: "custom",
          message: `${key} is not an Ed25519 public key (SPKI DER, base64)`,
        });
      }
    }
  });
