import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The process's Prometheus metrics (GET /metrics, issue 31): one registry per app, never the global one. */
export interface Metrics {
  registry: Registry;
  /** Seconds to answer an HTTP request, by method, route template and status class. */
  httpSeconds: Histogram<"method" | "route" | "status">;
}

/** Buckets of an HTTP answer's time: 5 ms to 10 s. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A registry with the HTTP histogram; with `isProcessWatched` also Node's own figures (event-loop
 * lag, heap, GC), which watch the process from then on, so only an app that serves /metrics asks.
 */
export function createMetrics(options: { isProcessWatched: boolean }): Metrics {
  const registry = new Registry();
  if (options.isProcessWatched) collectDefaultMetrics({ register: registry, prefix: "cellfleet_" });
  const httpSeconds = new Histogram({
    name: "cellfleet_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route template (never a concrete path) and status class",
    labelNames: ["method", "route", "status"] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  return { registry, httpSeconds };
}

/**
 * Times every answer by its route's template (`/api/device/:deviceId`), so a label never names a
 * router or a file; a request no route matched counts as "unmatched".
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    metrics.httpSeconds.observe(
      { method: request.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  });
}
