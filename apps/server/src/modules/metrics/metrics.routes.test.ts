import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { openTestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";
import { insertDevice, sampleDeviceIngestStats, type TestDevice } from "../ingest/ingest.test-support";
import { STORED_SECONDS_BOUNDS } from "../ingest/stored-latency";

const TOKEN = "prometheus-scrape-token-for-tests";
let t: TestApp;
let off: TestApp;
let domainName = "";
let domainId = "";
let devices: TestDevice[] = [];

/** The id of the test's `index`th router. */
function idAt(index: number): string {
  const device = devices[index];
  if (!device) throw new Error(`no router ${index}`);
  return device.id;
}

/** The sample lines of an exposition (no comments), as "name{labels} value". */
function samplesOf(text: string): string[] {
  return text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
}

const scrape = () =>
  t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });

beforeAll(async () => {
  t = await createTestApp({
    config: { metricsToken: TOKEN },
    mqttStats: () =>
      sampleDeviceIngestStats({
        connections: 3,
        refused: { ...sampleDeviceIngestStats().refused, bad_token: 4 },
        ingest: {
          ...sampleDeviceIngestStats().ingest,
          stored: 120,
          batches: 6,
          queued: 2,
          // 0.01 s and below: 3; up to 0.025: 1; over 10 s: 2
          storedLatency: {
            bounds: STORED_SECONDS_BOUNDS,
            counts: [3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2],
            sumSeconds: 24.5,
            count: 6,
          },
        },
      }),
  });
  off = await createTestApp();
  const domain = await buildDomain(t);
  domainName = domain.name;
  domainId = domain.id;
  devices = [];
  for (let index = 0; index < 5; index++) devices.push(await insertDevice(t, domain.id));
  const now = t.clock.now();
  // Two online, one critical (a week silent), two never reported (pending); one connected.
  await t.db
    .updateTable("devices")
    .set({ last_contact: now, connected: true })
    .where("id", "=", idAt(0))
    .execute();
  await t.db.updateTable("devices").set({ last_contact: now }).where("id", "=", idAt(1)).execute();
  await t.db
    .updateTable("devices")
    .set({ last_contact: new Date(now.getTime() - 7 * 86_400_000) })
    .where("id", "=", idAt(2))
    .execute();
});
afterAll(async () => {
  await t.close();
  await off.close();
});

describe("GET /metrics", () => {
  it("is off (404) while METRICS_TOKEN is unset", async () => {
    const response = await off.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("OPERATION_IS_NOT_SUPPORTED");
  });

  it("asks for the bearer token: none is 401 TOKEN_NOT_GIVEN, another 401 TOKEN_INVALID", async () => {
    const none = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe("TOKEN_NOT_GIVEN");
    const wrong = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN.slice(1)}x` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("TOKEN_INVALID");
  });

  it("answers the Prometheus text format: routers by domain and status, the gateway's and ingest's counts", async () => {
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    const lines = samplesOf(response.body);
    const of = (status: string) => `cellfleet_routers{domain="${domainName}",status="${status}"}`;
    expect(lines).toContain(`${of("online")} 2`);
    expect(lines).toContain(`${of("critical")} 1`);
    expect(lines).toContain(`${of("warning")} 0`);
    expect(lines).toContain(`${of("pending")} 2`);
    expect(lines).toContain(`cellfleet_routers_connected{domain="${domainName}"} 1`);
    expect(lines).toContain(`cellfleet_ingest_reports_total{result="stored"} 120`);
    expect(lines).toContain(`cellfleet_ingest_batches_total{result="written"} 6`);
    expect(lines).toContain("cellfleet_ingest_queued 2");
    // The report→stored histogram, cumulative as Prometheus reads it.
    expect(lines).toContain(`cellfleet_ingest_stored_seconds_bucket{le="0.01"} 3`);
    expect(lines).toContain(`cellfleet_ingest_stored_seconds_bucket{le="0.025"} 4`);
    expect(lines).toContain(`cellfleet_ingest_stored_seconds_bucket{le="10"} 4`);
    expect(lines).toContain(`cellfleet_ingest_stored_seconds_bucket{le="+Inf"} 6`);
    expect(lines).toContain("cellfleet_ingest_stored_seconds_sum 24.5");
    expect(lines).toContain("cellfleet_ingest_stored_seconds_count 6");
    expect(response.body).toContain("# TYPE cellfleet_ingest_stored_seconds histogram");
    expect(lines).toContain("cellfleet_mqtt_connections 3");
    expect(lines).toContain(`cellfleet_mqtt_refused_total{reason="bad_token"} 4`);
    expect(lines.some((line) => line.startsWith("cellfleet_outbox_backlog "))).toBe(true);
    expect(lines.some((line) => line.startsWith("cellfleet_nodejs_eventloop_lag_seconds "))).toBe(true);
  });

  it("times HTTP answers by route template, and no label ever names a router, whatever the fleet's size", async () => {
    const admin = await buildUser(t, { role: 2, domainId: domainId });
    const token = await signIn(t.app, admin);
    const open = (id: string) =>
      t.app.inject({ method: "POST", url: `/api/device/${id}`, headers: { token }, payload: {} });
    for (const device of devices) expect((await open(device.id)).statusCode).toBe(200);
    await scrape();
    const before = samplesOf((await scrape()).body);
    expect(before.some((line) => line.includes('route="/api/device/:dev_id"'))).toBe(true);

    // Ten times the routers, each opened: the same series, only their values move.
    for (let index = 0; index < 45; index++) {
      const device = await insertDevice(t, domainId);
      devices.push(device);
      expect((await open(device.id)).statusCode).toBe(200);
    }
    const after = samplesOf((await scrape()).body);
    // Node's own figures (a GC kind appears once it first runs) are bounded by nature: the rest is ours.
    const series = (lines: string[]) =>
      new Set(
        lines
          .map((line) => line.slice(0, line.lastIndexOf(" ")))
          .filter((name) => !/^cellfleet_(nodejs|process)_/.test(name)),
      );
    expect([...series(after)].sort()).toEqual([...series(before)].sort());
    for (const device of devices) {
      expect(after.some((line) => line.includes(device.id) || line.includes(device.ident))).toBe(false);
    }
    expect(after).toContain(`cellfleet_routers{domain="${domainName}",status="pending"} 47`);
  });

  it("counts this node's browser sockets and the bytes written to them", async () => {
    const admin = await buildUser(t, { role: 2, domainId });
    const token = await signIn(t.app, admin);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = await openTestSocket(`ws://127.0.0.1:${port}/api/ws/`);
    socket.sendJson({ token });
    expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
    const open = samplesOf((await scrape()).body);
    expect(open).toContain("cellfleet_sockets 1");
    const bytes = open.find((line) => line.startsWith("cellfleet_socket_sent_bytes_total "));
    expect(Number(bytes?.split(" ")[1])).toBeGreaterThan(0);
    socket.ws.close();
    await socket.closed;
    await expect.poll(async () => samplesOf((await scrape()).body)).toContain("cellfleet_sockets 0");
  });
});
