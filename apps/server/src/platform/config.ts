import path from "node:path";
import { z } from "zod";
import {
  DEV_LICENSE_PUBLIC_KEY,
  LicensePublicKeysSchema,
  MqttPublicUrlsSchema,
  optional,
  S3UrlSchema,
  urlWithProtocols,
  webauthnOf,
} from "./config-values";
import { redactUrl } from "./redact-url";
import { parseS3Url, type S3Config } from "./storage/s3-url";

export { DEV_LICENSE_PUBLIC_KEY };

/** The longest a signed file URL may live (a day): longer would no longer be short-lived. */
export const MAX_FILE_URL_TTL_MINUTES = 24 * 60;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const EnvSchema = z.object({
  PORT: optional(z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: optional(z.string().trim().min(1).default("0.0.0.0")),
  DATA_DIR: optional(z.string().trim().min(1).default("./data")),
  DATABASE_URL: optional(urlWithProtocols(["postgres:", "postgresql:"]).optional()),
  DATABASE_POOL_SIZE: optional(z.coerce.number().int().min(1).max(1000).default(10)),
  MQTT_PORT: optional(z.coerce.number().int().min(0).max(65535).default(1883)),
  MQTT_URL: optional(urlWithProtocols(["mqtt:", "mqtts:", "ws:", "wss:", "tcp:", "tls:"]).optional()),
  MQTT_AUTH_SECRET: optional(z.string().min(16, "must be at least 16 characters").max(1024).optional()),
  METRICS_TOKEN: optional(z.string().min(16, "must be at least 16 characters").max(1024).optional()),
  MQTT_PUBLIC_URL: optional(MqttPublicUrlsSchema.optional()),
  MQTT_SHARED_SUBSCRIPTION: optional(z.enum(["0", "1", "false", "true"]).default("0")),
  MQTT_TLS_PORT: optional(z.coerce.number().int().min(0).max(65535).optional()),
  MQTT_TLS_CERT: optional(z.string().min(1).optional()),
  MQTT_TLS_KEY: optional(z.string().min(1).optional()),
  MQTT_CLIENT_ID: optional(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/)
      .optional(),
  ),
  MQTT_DYNSEC: optional(z.enum(["0", "1", "false", "true"]).default("0")),
  BUS_URL: optional(urlWithProtocols(["nats:", "redis:", "rediss:"]).optional()),
  BUS_PREFIX: optional(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .default("cellfleet"),
  ),
  JOBS_WORKER: optional(z.enum(["0", "1", "false", "true"]).default("1")),
  DEVICE_SIDE: optional(z.enum(["0", "1", "false", "true"]).default("1")),
  CELLFLEET_ROOT_PASSWORD: optional(z.string().min(1).max(255).optional()),
  SIMULATE: optional(z.coerce.number().int().min(0).max(100000).default(25)),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS).default("info")),
  SESSION_TTL_HOURS: optional(
    z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(12),
  ),
  LOGIN_RATE_LIMIT: optional(z.coerce.number().int().min(1).max(1_000_000).default(20)),
  SMTP_URL: optional(urlWithProtocols(["smtp:", "smtps:"]).optional()),
  SMTP_HOST: optional(z.string().trim().min(1).optional()),
  SMTP_PORT: optional(z.coerce.number().int().min(1).max(65535).default(587)),
  SMTP_USER: optional(z.string().min(1).optional()),
  SMTP_PASSWORD: optional(z.string().min(1).optional()),
  SMTP_FROM: optional(z.string().trim().min(3).default("Cellfleet <no-reply@localhost>")),
  PUBLIC_URL: optional(urlWithProtocols(["http:", "https:"]).default("http://localhost:3000")),
  WEBAUTHN_ORIGIN: optional(urlWithProtocols(["http:", "https:"]).optional()),
  S3_URL: optional(S3UrlSchema.optional()),
  FILE_URL_TTL_MINUTES: optional(z.coerce.number().int().min(1).max(MAX_FILE_URL_TTL_MINUTES).default(15)),
  FIRMWARE_FETCH_TIMEOUT_SECONDS: optional(z.coerce.number().int().min(1).max(3600).default(30)),
  FIRMWARE_MAX_MB: optional(z.coerce.number().int().min(1).max(16_384).default(1024)),
  HISTORY_RETENTION_DAYS: optional(z.coerce.number().int().min(1).max(3650).default(90)),
  HISTORY_RAW_DAYS: optional(z.coerce.number().int().min(1).max(3650).default(7)),
  TELEGRAM_API_URL: optional(urlWithProtocols(["http:", "https:"]).default("https://api.telegram.org")),
  NOTIFY_WEBHOOK_ALLOW_PRIVATE: optional(z.enum(["0", "1", "false", "true"]).default("0")),
  LICENSE_SERVER_URL: optional(urlWithProtocols(["http:", "https:"]).default("http://127.0.0.1:3400")),
  LICENSE_PUBLIC_KEYS: optional(LicensePublicKeysSchema.default([DEV_LICENSE_PUBLIC_KEY])),
  UNLICENSED_DEVICE_LIMIT: optional(z.coerce.number().int().min(0).max(10_000_000).default(0)),
  TUNNEL_SSH_PORT: optional(z.coerce.number().int().min(0).max(65535).default(2222)),
  TUNNEL_SSH_HOST: optional(z.string().trim().min(1).max(253).optional()),
  TUNNEL_SSH_HOST_KEY: optional(z.string().trim().min(1).optional()),
  TUNNEL_WEB_HOST: optional(
    z
      .string()
      .trim()
      .regex(/^\*(\.[a-z0-9-]{1,63})+$/i, "must be a wildcard host name such as *.tunnel.example.com")
      .optional(),
  ),
  TUNNEL_WEB_NODE_HOST: optional(z.string().trim().min(1).max(253).optional()),
  TUNNEL_WEB_PORTS: optional(
    z
      .string()
      .trim()
      .regex(/^\d{1,5}-\d{1,5}$/, "must be a port range such as 20080-20179")
      .transform((range) => range.split("-").map(Number) as [number, number])
      .refine(([first, last]) => first <= last && last <= 65535, "must run from a port to a later one")
      .default([20080, 20179]),
  ),
  MAP_STYLE_URL: optional(urlWithProtocols(["http:", "https:"]).optional()),
});

/** The server's settings, read once from the environment at start. */
export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data directory (PGlite files live in `<dataDir>/db`). */
  dataDir: string;
  /** Set: PostgreSQL through a pg pool. Unset: embedded PGlite. */
  databaseUrl: string | undefined;
  /** PostgreSQL connections the server opens at most (ingest and requests share them). */
  databasePoolSize: number;
  mqttPort: number;
  /** MQTT_PORT was not set: the embedded broker may move off a taken default port. */
  isMqttPortDefault: boolean;
  mqttUrl: string | undefined;
  /** The broker's addresses as routers reach them (MQTT_PUBLIC_URL); unset: derived at runtime. */
  mqttPublicUrls: string[] | undefined;
  /** Shared secret an external broker sends to POST /api/mqtt/auth and /acl; unset: those answer 403. */
  mqttAuthSecret: string | undefined;
  /** The bearer token Prometheus sends to GET /metrics; unset: /metrics answers 404. */
  metricsToken: string | undefined;
  /** With MQTT_URL: subscribe through `$share/cellfleet/…` so N server nodes split the reports. */
  mqttSharedSubscription: boolean;
  /** The embedded broker also serves MQTT over TLS: port and PEM file paths (certificate chain, key). */
  mqttTls: { port: number; certFile: string; keyFile: string } | undefined;
  /**
   * With MQTT_URL (Mosquitto): the server provisions each router's credentials and ACL through the
   * dynamic-security plugin (modules/broker-accounts).
   */
  mqttDynsec: boolean;
  /**
   * With MQTT_URL: this node's client id, stable across restarts (the broker keeps its session
   * under it); default `cellfleet-server-<hostname>`. Several nodes on one host each need their own.
   */
  mqttClientId: string | undefined;
  busUrl: string | undefined;
  /**
   * The first token of every bus subject (NATS `{prefix}.…`) or channel (Redis `{prefix}:…`): two
   * installations sharing one NATS or Redis each set their own.
   */
  busPrefix: string;
  /** This node runs durable jobs (default); false: it only serves, and other nodes run what it queues. */
  jobsWorker: boolean;
  /**
   * This node runs the device side (gateway + ingest, default); false: it serves HTTP and browsers'
   * sockets only, taking the routers' news from the bus (a socket-serving node, ADR 036).
   */
  deviceSide: boolean;
  rootPassword: string | undefined;
  simulate: number;
  logLevel: (typeof LOG_LEVELS)[number];
  sessionTtlHours: number;
  /** Login attempts per minute per client IP (also registration and password-reset calls). */
  loginRateLimit: number;
  /** Outgoing mail; null when neither SMTP_URL nor SMTP_HOST is set (mail-sending calls then refuse). */
  smtp: SmtpConfig | null;
  /** The console's address as people reach it, for links in e-mails. */
  publicUrl: string;
  /**
   * Where passkeys are made and used (WEBAUTHN_ORIGIN, else PUBLIC_URL): its origin and host name
   * (the relying party id); null when the host is an IP address, where browsers refuse passkeys.
   */
  webauthn: { origin: string; rpId: string } | null;
  /** File blobs in S3-compatible object storage; null: on the local disk under `<dataDir>/files`. */
  s3: S3Config | null;
  /** How long a signed file URL handed to a device stays valid. */
  fileUrlTtlMinutes: number;
  /** Fetching a software rule's file: the longest wait for an answer or the next bytes, and the largest file. */
  firmwareFetch: { timeoutMs: number; maxBytes: number };
  /** History (rollups, outages, modem changes, SIM usage) older than this many days is dropped. */
  historyRetentionDays: number;
  /** Raw signal samples and the change history of collects are kept this many days (rollups after). */
  historyRawDays: number;
  /** Where notifications go out: the Telegram Bot API's address, and whether webhooks may be private. */
  notifications: NotificationsConfig;
  /** Licences (modules/licences, ADR 022). */
  licenses: LicensesConfig;
  /** Remote access's SSH endpoint that routers dial out to (ADR 038); port 0 takes a free one. */
  tunnel: { sshPort: number; sshHost: string; hostKeyFile: string; web: TunnelWebConfig };
  /** The fleet map's tiles: a MapLibre style JSON the browser loads; null draws a plain background. */
  mapStyleUrl: string | null;
}

/** Where a web-interface session's own origin is (ADR 038): a host under a wildcard, or a port of its own. */
export interface TunnelWebConfig {
  /** `*.tunnel.example.com` (TUNNEL_WEB_HOST): each session at `<token>.tunnel.example.com`; null: ports. */
  hostPattern: string | null;
  /** The scheme of the session's origin: PUBLIC_URL's behind a wildcard host, http on a port of its own. */
  scheme: "http" | "https";
  /** The console's host name, where per-session ports listen (PUBLIC_URL's). */
  consoleHost: string;
  /** Ports a session may take (TUNNEL_WEB_PORTS); `[0, 0]`: any free port (tests). */
  ports: [number, number];
  /**
   * The host name other server nodes reach this node's wildcard listener at (TUNNEL_WEB_NODE_HOST,
   * default TUNNEL_SSH_HOST): a request for a session another node carries is passed there.
   */
  nodeHost: string;
}

/** Where licences are activated and how they are checked. */
export interface LicensesConfig {
  /** The vendor's licence service (LICENSE_SERVER_URL), without a trailing slash. */
  serverUrl: string;
  /** Ed25519 public keys (SPKI DER, base64) a licence's signature may verify with. */
  publicKeys: string[];
  /** Routers an installation without any activated licence may hold; 0: no limit. */
  unlicensedDeviceLimit: number;
}

/** The notification providers' server-side settings. */
export interface NotificationsConfig {
  /** The Bot API's base URL (a local Bot API server, or a loopback one in tests). */
  telegramApiUrl: string;
  /**
   * Webhook chats may post to loopback, link-local and private addresses (a self-hosted Mattermost
   * or Rocket.Chat on the LAN). Off by default: a webhook URL is typed by people and must not
   * reach the server's own network. Cloud metadata addresses stay refused either way.
   */
  webhookAllowPrivate: boolean;
}

/** Where outgoing mail goes: a URL (smtp:// or smtps://) or host, port and credentials. */
export interface SmtpConfig {
  url: string | undefined;
  host: string | undefined;
  port: number;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

/** Thrown when the environment holds a value the server cannot start with. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** How a bad value is shown in the start-up error: secrets hidden, URL passwords masked. */
function describeValue(name: string, value: string | undefined): string {
  if (value === undefined) return "(unset)";
  if (name === "CELLFLEET_ROOT_PASSWORD" || name === "SMTP_PASSWORD") return "(hidden)";
  // S3 secrets may hold `/` or `@` unencoded, which the URL mask below would not catch whole.
  if (name === "S3_URL") return value.includes("@") ? "(hidden: holds credentials)" : JSON.stringify(value);
  return JSON.stringify(redactUrl(value));
}

/** MQTT_TLS_PORT, MQTT_TLS_CERT and MQTT_TLS_KEY go together: all three or none. */
function mqttTlsConfig(
  port: number | undefined,
  cert: string | undefined,
  key: string | undefined,
  cwd: string,
): Config["mqttTls"] {
  if (port === undefined && cert === undefined && key === undefined) return undefined;
  if (port === undefined || cert === undefined || key === undefined) {
    throw new ConfigError(
      "Invalid environment:\n  MQTT_TLS_PORT, MQTT_TLS_CERT and MQTT_TLS_KEY: set all three (port, PEM certificate file, PEM key file) or none",
    );
  }
  return { port, certFile: path.resolve(cwd, cert), keyFile: path.resolve(cwd, key) };
}

/** Parses the environment into a Config; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join(".");
      return `  ${name}=${describeValue(name, env[name])}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.HISTORY_RAW_DAYS > e.HISTORY_RETENTION_DAYS) {
    throw new ConfigError(
      `Invalid environment:\n  HISTORY_RAW_DAYS=${e.HISTORY_RAW_DAYS}: must not exceed HISTORY_RETENTION_DAYS (${e.HISTORY_RETENTION_DAYS})`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    mqttPort: e.MQTT_PORT,
    isMqttPortDefault: (env.MQTT_PORT ?? "").trim() === "",
    mqttUrl: e.MQTT_URL,
    mqttPublicUrls: e.MQTT_PUBLIC_URL,
    mqttAuthSecret: e.MQTT_AUTH_SECRET,
    metricsToken: e.METRICS_TOKEN,
    mqttSharedSubscription: e.MQTT_SHARED_SUBSCRIPTION === "1" || e.MQTT_SHARED_SUBSCRIPTION === "true",
    mqttTls: mqttTlsConfig(e.MQTT_TLS_PORT, e.MQTT_TLS_CERT, e.MQTT_TLS_KEY, cwd),
    mqttDynsec: e.MQTT_DYNSEC === "1" || e.MQTT_DYNSEC === "true",
    mqttClientId: e.MQTT_CLIENT_ID,
    busUrl: e.BUS_URL,
    busPrefix: e.BUS_PREFIX,
    jobsWorker: e.JOBS_WORKER === "1" || e.JOBS_WORKER === "true",
    deviceSide: e.DEVICE_SIDE === "1" || e.DEVICE_SIDE === "true",
    rootPassword: e.CELLFLEET_ROOT_PASSWORD,
    simulate: e.SIMULATE,
    logLevel: e.LOG_LEVEL,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    smtp:
      e.SMTP_URL || e.SMTP_HOST
        ? {
            url: e.SMTP_URL,
            host: e.SMTP_HOST,
            port: e.SMTP_PORT,
            user: e.SMTP_USER,
            password: e.SMTP_PASSWORD,
            from: e.SMTP_FROM,
          }
        : null,
    publicUrl: e.PUBLIC_URL.replace(/\/+$/, ""),
    webauthn: webauthnOf(e.WEBAUTHN_ORIGIN ?? e.PUBLIC_URL),
    s3: e.S3_URL ? parseS3Url(e.S3_URL) : null,
    fileUrlTtlMinutes: e.FILE_URL_TTL_MINUTES,
    firmwareFetch: {
      timeoutMs: e.FIRMWARE_FETCH_TIMEOUT_SECONDS * 1000,
      maxBytes: e.FIRMWARE_MAX_MB * 1024 * 1024,
    },
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    historyRawDays: e.HISTORY_RAW_DAYS,
    notifications: {
      telegramApiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ""),
      webhookAllowPrivate:
        e.NOTIFY_WEBHOOK_ALLOW_PRIVATE === "1" || e.NOTIFY_WEBHOOK_ALLOW_PRIVATE === "true",
    },
    licenses: {
      serverUrl: e.LICENSE_SERVER_URL.replace(/\/+$/, ""),
      publicKeys: e.LICENSE_PUBLIC_KEYS,
      unlicensedDeviceLimit: e.UNLICENSED_DEVICE_LIMIT,
    },
    tunnel: {
      sshPort: e.TUNNEL_SSH_PORT,
      sshHost: e.TUNNEL_SSH_HOST ?? new URL(e.PUBLIC_URL).hostname,
      hostKeyFile: path.resolve(
        cwd,
        e.TUNNEL_SSH_HOST_KEY ?? path.join(e.DATA_DIR, "tunnel_host_ed25519_key"),
      ),
      web: {
        hostPattern: e.TUNNEL_WEB_HOST?.toLowerCase() ?? null,
        scheme: e.TUNNEL_WEB_HOST ? (new URL(e.PUBLIC_URL).protocol === "https:" ? "https" : "http") : "http",
        consoleHost: new URL(e.PUBLIC_URL).hostname,
        ports: e.TUNNEL_WEB_PORTS,
        nodeHost: e.TUNNEL_WEB_NODE_HOST ?? e.TUNNEL_SSH_HOST ?? new URL(e.PUBLIC_URL).hostname,
      },
    },
    mapStyleUrl: e.MAP_STYLE_URL ?? null,
  };
}
