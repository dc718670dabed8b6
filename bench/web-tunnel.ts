// The router's web interface through the console (issue 29, ADR 038): a 10 MB download (BENCH_BYTES)
// through a web session, side by side with the same download straight from the same web server, in
// one run, BENCH_ROUNDS (15) times each, alternating, after BENCH_WARMUP (10) uncounted rounds of
// each. The real app listening on a port (the session's own origin, its SSH endpoint), the embedded
// broker and ingest; the router in the simulator's CLI, whose web UI (apps/simulator/src/web-ui.ts)
// serves `/download?bytes=N` behind its forward. The direct figure is that same web UI listening on
// loopback in this process. The domain's bandwidth cap is set to its top (1 GiB/s) so that the
// tunnel, not the cap, is measured.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { createWebUi } from "../apps/simulator/src/index";
import { loopbackTunnelConfig, startFleetConsole } from "./fleet-console";

const BYTES = Number(process.env.BENCH_BYTES ?? 10 * 1024 * 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const ENGINE = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "pglite";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** GETs `path` from `port` with `cookie`; answers the milliseconds until the last byte and the bytes. */
function download(port: number, urlPath: string, cookie = ""): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: urlPath, headers: cookie ? { cookie } : {} }, (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on("end", () => resolve({ ms: performance.now() - started, bytes }));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/** Follows a session link: the cookie it sets. */
function enter(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        const [line = ""] = response.headers["set-cookie"] ?? [];
        resolve(line.split(";")[0] ?? "");
      })
      .on("error", reject);
  });
}

async function main(): Promise<void> {
  const fleet = await startFleetConsole({
    engine: ENGINE,
    name: "webbench",
    prefix: "WEB",
    routers: 1,
    people: { admin: { role: 2, is_junior: false } },
    isListening: true,
    config: loopbackTunnelConfig("webbench"),
  });
  const direct = createWebUi({ ident: "WEB-DIRECT", model: "R1520", firmware: "bench" });
  await new Promise<void>((resolve) => direct.listen(0, "127.0.0.1", resolve));
  try {
    await fleet.connected();
    const admin = await fleet.login("admin");
    const inject = (method: "POST" | "PATCH", url: string, payload: object = {}) =>
      fleet.app.inject({ method, url, headers: { token: admin }, payload });
    const settings = (await inject("POST", "/api/settings/all")).json().settings;
    const limits = { ...settings.remote_access, bandwidth_kib: 1_048_576, quota_mib: 102_400 };
    const saved = await inject("PATCH", "/api/settings/domains-all", { ...settings, remote_access: limits });
    if (saved.statusCode !== 200) throw new Error(saved.body);
    const device = await fleet.db
      .selectFrom("devices")
      .select("id")
      .where("domain_id", "=", fleet.domainId)
      .executeTakeFirstOrThrow();
    const created = await inject("POST", "/api/tunnels", { device_id: device.id, kind: "web", minutes: 30 });
    if (created.statusCode !== 200) throw new Error(created.body);
    const opened = (await inject("POST", `/api/tunnel/${created.json()._id}/web`)).json();
    if (opened.state !== "open") throw new Error(JSON.stringify(opened));
    const cookie = await enter(opened.url);
    const tunnelPort = Number(new URL(opened.origin).port);
    const directPort = (direct.address() as AddressInfo).port;
    const urlPath = `/download?bytes=${BYTES}`;
    // The first download has the router dial in; the warm-up rounds let both processes' JIT settle
    // on the SSH and HTTP paths as a session does after its first pages. Neither is counted.
    await download(tunnelPort, urlPath, cookie);
    for (let round = 0; round < WARMUP; round += 1) {
      await download(tunnelPort, urlPath, cookie);
      await download(directPort, urlPath);
    }
    const load = loadavg().map((value) => value.toFixed(2));
    const tunnelMs: number[] = [];
    const directMs: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const viaTunnel = await download(tunnelPort, urlPath, cookie);
      const straight = await download(directPort, urlPath);
      if (viaTunnel.bytes !== BYTES || straight.bytes !== BYTES) throw new Error("a download came short");
      tunnelMs.push(viaTunnel.ms);
      directMs.push(straight.ms);
    }
    const rate = (ms: number) => BYTES / 1024 / 1024 / (ms / 1000);
    const tunnelRate = rate(median(tunnelMs));
    const directRate = rate(median(directMs));
    console.log(
      `web tunnel benchmark (${ENGINE}): ${(BYTES / 1024 / 1024).toFixed(0)} MiB, ${ROUNDS} rounds each after ${WARMUP} of warm-up, load average ${load.join(" ")} at the start\n` +
        `  direct from the web server: median ${median(directMs).toFixed(0)} ms, ${directRate.toFixed(1)} MiB/s\n` +
        `  through the web tunnel:     median ${median(tunnelMs).toFixed(0)} ms, ${tunnelRate.toFixed(1)} MiB/s\n` +
        `  rounds (ms), tunnel: ${tunnelMs.map((ms) => ms.toFixed(0)).join(" ")}; direct: ${directMs.map((ms) => ms.toFixed(0)).join(" ")}\n` +
        `  tunnel / direct: ${((tunnelRate / directRate) * 100).toFixed(0)}% (target ≥ 50%); load average now ${loadavg()
          .map((value) => value.toFixed(2))
          .join(" ")}`,
    );
    await inject("POST", `/api/tunnel/${created.json()._id}/end`);
  } finally {
    direct.close();
    await fleet.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
