import { type Logger, type LoggerOptions, pino } from "pino";

/** Fields never written to the log: tokens and passwords wherever they appear. */
export const REDACTED_PATHS = [
  "req.headers.token",
  "req.headers.authorization",
  "req.headers.cookie",
  "token",
  "password",
  "*.token",
  "*.password",
  "*.password_hash",
  "*.*.password",
  "body.token",
  "body.password",
];

/** The pino options the server logs with, at the given level. */
export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
}

/** The process logger; Fastify uses it too, so start-up and request lines share one stream. */
export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}

/** A logger that writes nothing, for tests. */
export function createSilentLogger(): Logger {
  return pino({ level: "silent" });
}
