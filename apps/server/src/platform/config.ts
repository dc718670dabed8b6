import path from "node:path";
import { z } from "zod";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** An unset or blank variable counts as absent, so `PORT=` falls back to the default. */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema,
  );
}

function urlWithProtocols(protocols: readonly string[]) {
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

const EnvSchema = z.object({
  PORT: optional(z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: optional(z.string().trim().min(1).default("0.0.0.0")),
  DATA_DIR: optional(z.string().trim().min(1).default("./data")),
  DATABASE_URL: optional(urlWithProtocols(["postgres:", "postgresql:"]).optional()),
  MQTT_PORT: optional(z.coerce.number().int().min(0).max(65535).default(1883)),
  MQTT_URL: optional(urlWithProtocols(["mqtt:", "mqtts:", "ws:", "wss:", "tcp:", "tls:"]).optional()),
  BUS_URL: optional(urlWithProtocols(["nats:", "redis:", "rediss:"]).optional()),
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
});

/** The server's settings, read once from the environment at start. */
export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data directory (PGlite files live in `<dataDir>/db`). */
  dataDir: string;
  /** Set: PostgreSQL through a pg pool. Unset: embedded PGlite. */
  databaseUrl: string | undefined;
  mqttPort: number;
  mqttUrl: string | undefined;
  busUrl: string | undefined;
  rootPassword: string | undefined;
  simulate: number;
  logLevel: (typeof LOG_LEVELS)[number];
  sessionTtlHours: number;
  /** Login attempts per minute per client IP. */
  loginRateLimit: number;
}

/** Thrown when the environment holds a value the server cannot start with. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** How a bad value is shown in the start-up error: secrets hidden, URL passwords masked. */
function describeValue(name: string, value: string | undefined): string {
  if (value === undefined) return "(unset)";
  if (name === "CELLFLEET_ROOT_PASSWORD") return "(hidden)";
  return JSON.stringify(value.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@"));
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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    busUrl: e.BUS_URL,
    rootPassword: e.CELLFLEET_ROOT_PASSWORD,
    simulate: e.SIMULATE,
    logLevel: e.LOG_LEVEL,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
  };
}
