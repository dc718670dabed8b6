import { type Logger, type LoggerOptions, pino } from "pino";
import { hideSecretsInText } from "./audit/sanitize";

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

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  id?: string;
}

/**
 * A request as a log line shows it: method, URL and caller, with the secrets a URL can carry (a
 * download's token, a transfer URL's signature, a key) hidden; never its headers.
 */
export function serializeRequest(request: LoggedRequest): Record<string, unknown> {
  return {
    id: request.id,
    method: request.method,
    url: typeof request.url === "string" ? hideSecretsInText(request.url) : request.url,
    remoteAddress: request.ip,
  };
}

/** The pino options the server logs with, at the given level. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { req: serializeRequest, err: pino.stdSerializers.err },
  };
}

/** The process logger; Fastify uses it too, so start-up and request lines share one stream. */
export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}

/** A logger that writes nothing, for tests. */
export function createSilentLogger(): Logger {
  return pino({ level: "silent" });
}
