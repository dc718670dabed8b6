import { timingSafeEqual } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import type { Metrics } from "../../platform/metrics/metrics";
import type { MqttStatsSource } from "../ingest/mqtt.routes";
import { createScrapedMetrics, type SocketStats } from "./metrics.service";

/** Whether the request's `Authorization: Bearer …` is the configured token (compared in constant time). */
function isBearer(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics (issue 31): the Prometheus text format, for the bearer token of METRICS_TOKEN; off
 * (404) while the setting is unset. It sits beside /api, not in it: no session, no audit.
 */
export const metricsRoutes: FastifyPluginAsync<{
  ctx: AppContext;
  metrics: Metrics;
  deviceStats?: MqttStatsSource;
  /** This node's browser sockets (the realtime socket's live views). */
  socketStats?: () => SocketStats | null;
}> = async (app, { ctx, metrics, deviceStats, socketStats }) => {
  const scraped = createScrapedMetrics(metrics.registry);
  // One scrape at a time: a refresh resets the gauges another scrape may be reading.
  let previous: Promise<unknown> = Promise.resolve();
  const scrape = async (): Promise<string> => {
    await scraped.refresh(ctx, deviceStats?.() ?? null, socketStats?.() ?? null);
    return metrics.registry.metrics();
  };
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    const token = ctx.config.metricsToken;
    if (!token)
      throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Metrics are off: set METRICS_TOKEN to serve them", {
        status: 404,
      });
    if (!request.headers.authorization) throw new AppError("TOKEN_NOT_GIVEN", "Metrics need a bearer token");
    if (!isBearer(request.headers.authorization, token))
      throw new AppError("TOKEN_INVALID", "The bearer token is not the metrics token");
    const text = previous.then(scrape, scrape);
    previous = text.catch(() => undefined);
    reply.header("content-type", metrics.registry.contentType);
    return text;
  });
};
