import { Counter, Gauge, type Metric, type Registry } from "prom-client";
import type { AppContext } from "../../platform/context";
import { domainListRepo } from "../domains/domain-list.repo";
import type { DeviceIngestStats } from "../ingest/ingest.runtime";
import type { StoredLatency } from "../ingest/stored-latency";
import { metricsRepo } from "./metrics.repo";

/** This node's browser sockets, as the realtime socket's live views count them. */
export interface SocketStats {
  openSockets: number;
  bytesSent: number;
  framesEncoded: number;
}

/** The window of the delivery and execution counts: what happened in the last day. */
const RECENT_MS = 24 * 3_600_000;

/** Sets a counter to a total kept elsewhere (the gateway's own counts since start). */
function setTotal<T extends string>(counter: Counter<T>, labels: Partial<Record<T, string>>, value: number) {
  counter.remove(labels);
  counter.inc(labels, value);
}

/**
 * The figures GET /metrics reads at each scrape, registered on the app's registry. Labels are
 * bounded: domains, statuses, job kinds, providers, refusal reasons — never a router.
 */
export function createScrapedMetrics(registry: Registry) {
  const registers = [registry];
  const gauge = <T extends string>(name: string, help: string, labelNames: readonly T[] = []) =>
    new Gauge<T>({ name, help, labelNames, registers });
  const counter = <T extends string>(name: string, help: string, labelNames: readonly T[] = []) =>
    new Counter<T>({ name, help, labelNames, registers });
  const m = {
    routers: gauge("cellfleet_routers", "Routers by domain and status (spec §5, the list's rule)", [
      "domain",
      "status",
    ] as const),
    connected: gauge("cellfleet_routers_connected", "Routers connected now, by domain (ADR 032)", [
      "domain",
    ] as const),
    jobs: gauge("cellfleet_jobs", "Durable jobs by kind and state", ["kind", "state"] as const),
    queueAge: gauge(
      "cellfleet_jobs_queue_age_seconds",
      "Age of the oldest job of a kind that is due and not yet taken (0: none waits)",
      ["kind"] as const,
    ),
    backlog: gauge("cellfleet_outbox_backlog", "Jobs and outbox events due and not yet taken, all kinds"),
    deliveries: gauge(
      "cellfleet_notification_deliveries_last_day",
      "Notification deliveries made in the last 24 hours, by provider and state",
      ["provider", "state"] as const,
    ),
    executions: gauge(
      "cellfleet_command_executions_last_day",
      "Routers' parts of commands made in the last 24 hours, by status",
      ["status"] as const,
    ),
    reports: counter(
      "cellfleet_ingest_reports_total",
      "Reports this node's ingest took since start, by result",
      ["result"] as const,
    ),
    batches: counter("cellfleet_ingest_batches_total", "Ingest batches since start, by result", [
      "result",
    ] as const),
    queued: gauge("cellfleet_ingest_queued", "Reports waiting for this node's ingest"),
    connections: gauge(
      "cellfleet_mqtt_connections",
      "Router connections open on this node's embedded broker (absent with an external broker)",
    ),
    sockets: gauge("cellfleet_sockets", "Browser sockets open on this node"),
    socketBytes: counter(
      "cellfleet_socket_sent_bytes_total",
      "Bytes this node wrote to browser sockets since start (a shared frame counted per socket)",
    ),
    socketFrames: counter(
      "cellfleet_socket_frames_encoded_total",
      "Frames this node encoded for browser sockets since start (each encoded once for all its sockets)",
    ),
    refused: counter(
      "cellfleet_mqtt_refused_total",
      "Router connections, subscriptions and messages this node's gateway refused since start, by reason",
      ["reason"] as const,
    ),
  };

  /** Reads the database and the device side's counts into the metrics; the registry then answers. */
  async function refresh(
    ctx: AppContext,
    device: DeviceIngestStats | null,
    sockets: SocketStats | null,
  ): Promise<void> {
    const now = ctx.now();
    const since = new Date(now.getTime() - RECENT_MS);
    const repo = metricsRepo(ctx.db);
    const [domains, jobs, due, deliveries, executions] = await Promise.all([
      domainListRepo(ctx.db).countDevicesByDomainAcrossDomains(now),
      repo.countJobsAcrossDomains(now),
      repo.countDueJobsAcrossDomains(now),
      repo.countDeliveriesAcrossDomains(since),
      repo.countExecutionsAcrossDomains(since),
    ]);
    for (const metric of [m.routers, m.connected, m.jobs, m.queueAge, m.deliveries, m.executions])
      metric.reset();
    for (const domain of domains) {
      const pending = Math.max(0, domain.total - domain.online - domain.warning - domain.critical);
      const counts = { online: domain.online, pending, warning: domain.warning, critical: domain.critical };
      for (const [status, count] of Object.entries(counts))
        m.routers.set({ domain: domain.name, status }, count);
      m.connected.set({ domain: domain.name }, domain.connected);
    }
    const ages = new Map<string, number>();
    for (const job of jobs) {
      m.jobs.set({ kind: job.kind, state: job.state }, job.count);
      ages.set(job.kind, Math.max(ages.get(job.kind) ?? 0, job.oldest_due_seconds ?? 0));
    }
    for (const [kind, age] of ages) m.queueAge.set({ kind }, age);
    m.backlog.set(due);
    for (const row of deliveries) m.deliveries.set({ provider: row.provider, state: row.state }, row.count);
    for (const row of executions) m.executions.set({ status: row.status }, row.count);
    if (device) readDeviceSide(device);
    if (sockets) {
      m.sockets.set(sockets.openSockets);
      setTotal(m.socketBytes, {}, sockets.bytesSent);
      setTotal(m.socketFrames, {}, sockets.framesEncoded);
    }
  }

  function readDeviceSide(device: DeviceIngestStats): void {
    storedLatency = device.ingest.storedLatency;
    setTotal(m.reports, { result: "stored" }, device.ingest.stored);
    setTotal(m.reports, { result: "duplicate" }, device.ingest.duplicates);
    setTotal(m.reports, { result: "unknown_device" }, device.ingest.unknownDevice);
    setTotal(m.batches, { result: "written" }, device.ingest.batches);
    setTotal(m.batches, { result: "failed" }, device.ingest.failedBatches);
    m.queued.set(device.ingest.queued);
    if (device.connections !== null) m.connections.set(device.connections);
    for (const [reason, count] of Object.entries(device.refused)) setTotal(m.refused, { reason }, count);
  }

  // Ingest counts its own buckets (ingest/stored-latency.ts); this hands them to the registry as a
  // histogram at each scrape, so the node's whole history since start is in it.
  let storedLatency: StoredLatency | null = null;
  registry.registerMetric({
    name: "cellfleet_ingest_stored_seconds",
    get: async () => ({
      name: "cellfleet_ingest_stored_seconds",
      help: "Seconds from a report reaching this node to its batch's commit (then it is acknowledged)",
      type: "histogram", // the text format's word; prom-client's typings say an enum
      aggregator: "sum",
      values: storedLatency ? histogramValues("cellfleet_ingest_stored_seconds", storedLatency) : [],
    }),
  } as unknown as Metric);

  return { refresh };
}

/** Prometheus's cumulative buckets, sum and count of counts kept per bucket. */
function histogramValues(name: string, latency: StoredLatency) {
  let cumulative = 0;
  const buckets = latency.counts.map((count, index) => {
    cumulative += count;
    const bound = latency.bounds[index];
    return {
      metricName: `${name}_bucket`,
      labels: { le: bound === undefined ? "+Inf" : bound },
      value: cumulative,
    };
  });
  return [
    ...buckets,
    { metricName: `${name}_sum`, labels: {}, value: latency.sumSeconds },
    { metricName: `${name}_count`, labels: {}, value: latency.count },
  ];
}
