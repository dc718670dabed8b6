import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Execution } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ActionsFixture,
  isCommandFinished,
  openActionsFixture,
} from "../modules/actions/actions.test-support";
import type { DeviceIngest } from "../modules/ingest/ingest.runtime";
import {
  eventually,
  insertDevice,
  startTestIngest,
  type TestDevice,
} from "../modules/ingest/ingest.test-support";
import { buildDomain } from "../test/factories";
import { buildFile } from "../test/file-factories";
import { createTestApp, type TestApp } from "../test/test-app";
import { type OpenWrtRouter, openWrtAgentDriver } from "./openwrt-agent.driver";

// The OpenWrt agent end to end, beyond the shared conformance scenarios (openwrt-agent.conformance.test.ts):
// BusyBox ash, jq, mosquitto_sub/mosquitto_pub, curl and openssl against a console with its embedded
// broker, every command type with what the router's own programs were asked to do, and TLS. Only
// the OpenWrt-only programs are stand-ins (agents/openwrt/test/standins), printing recorded outputs
// of real routers' programs and logging their calls. Every wait is on a condition, never a sleep.

/** A step's limit: generous, for a loaded two-core machine. */
const STEP_MS = 60_000;

/** Proportional resident memory (kB) of every process in a process group: shared libraries split. */
function groupPss(pgid: number): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the OpenWrt agent against a console", { timeout: 4 * STEP_MS }, () => {
  let f: ActionsFixture;
  let admin: { id: string; token: string };
  let device: TestDevice;
  let router: OpenWrtRouter;

  beforeAll(async () => {
    f = await openActionsFixture();
    admin = await f.person("admin");
    device = await f.device();
    router = await openWrtAgentDriver().start(
      { mqttUrl: f.ingest.gateway.url, publicUrl: f.t.config.publicUrl },
      { kind: "key", ident: device.ident, key: device.key as string },
    );
  }, STEP_MS);
  afterAll(async () => {
    await router?.stop();
    await f?.close();
  }, STEP_MS);

  const collect = async (type: string) =>
    (
      await f.t.db
        .selectFrom("device_collects")
        .select("data")
        .where("device_id", "=", device.id)
        .where("type", "=", type)
        .executeTakeFirst()
    )?.data as Record<string, unknown> | undefined;

  const deviceRow = () =>
    f.t.db.selectFrom("devices").selectAll().where("id", "=", device.id).executeTakeFirstOrThrow();

  /** Sends one command to the router; answers its one execution once finished. */
  async function run(body: Record<string, unknown>, waitMs = STEP_MS): Promise<Execution> {
    const created = await f.post(admin.token, "/api/command/new", {
      ...body,
      targets: { devices: [device.id] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const command = await f.waitForCommand(
      admin.token,
      created.json()._id,
      isCommandFinished,
      String(body.type),
      waitMs,
    );
    const [report] = await f.reports(admin.token, command._id);
    return report as Execution;
  }

  /** Index of the first stand-in call that starts with `prefix`, -1 when none. */
  const callIndex = (prefix: string) => router.calls().findIndex((call) => call.startsWith(prefix));

  /** Waits until the router said hello again after `boots` boots. */
  async function bootedAgain(boots: number) {
    await eventually(() => router.boots > boots, "the router booted again", STEP_MS);
  }

  it("says hello and reports every collect type, its modem from mmcli", async () => {
    await eventually(async () => (await deviceRow()).firmware === "23.05.3", "the hello stored", STEP_MS);
    for (const type of ["board", "interfaces", "routing", "modems", "ethernets", "tunnels"])
      await eventually(async () => (await collect(type)) !== undefined, `collect/${type}`, STEP_MS);
    expect(await deviceRow()).toMatchObject({ model: "GL.iNet GL-X3000" });
    expect(await collect("modems")).toMatchObject({
      modems: [
        {
          id: "0",
          mode: "LTE",
          module: "Quectel EC25-E",
          operator: "MegaFon",
          imei: "866758041234567",
          iccid: "8970102123456789012",
          rsrp: -94,
          sinr: 13.2,
          csq: 23,
          primary: true,
        },
      ],
    });
    expect(await collect("tunnels")).toMatchObject({ tunnels: [{ name: "office", kind: "openvpn" }] });
    const routing = (await collect("routing")) as { routes: Array<{ is_default: boolean }> };
    expect(routing.routes.filter((route) => route.is_default).length).toBeLessThanOrEqual(1);
  });

  it("stays within 4 MB of memory while listening (proportional set size of all its processes)", async () => {
    await eventually(async () => (await collect("tunnels")) !== undefined, "reporting", STEP_MS);
    const pgid = router.pid();
    expect(pgid).toBeDefined();
    const pss = groupPss(pgid as number);
    expect(pss).toBeGreaterThan(0);
    expect(pss).toBeLessThanOrEqual(4096);
  });

  it("stops a shell script at its time limit with code 124, and runs the next at once", async () => {
    const slow = await run({ type: "shell", args: { script: "echo started; sleep 600", timeout: 2 } });
    // The console shows a 124 as expired (docs/device-protocol.md 6.3).
    expect(slow).toMatchObject({ status: "expired", code: 124 });
    expect(slow.output).toContain("started");
    expect(slow.output).toContain("killed after 2 s");
    const quick = await run({ type: "shell", args: { script: "echo quick" } });
    expect(quick).toMatchObject({ status: "completed", code: 0 });
  });

  it("applies settings (a rendered template, sent as shell) through uci batch", async () => {
    const template = await f.post(admin.token, "/api/template/new", {
      name: "Hostname",
      text: "uci batch <<'EOF'\nset system.@system[0].hostname='{{name}}'\ncommit system\nEOF",
      defaults: { name: "edge-7" },
    });
    expect(template.statusCode, template.body).toBe(200);
    const done = await run({ type: "settings", template_id: template.json()._id });
    expect(done).toMatchObject({ status: "completed", code: 0 });
    const calls = router.calls();
    const batch = calls.indexOf("uci batch");
    expect(batch).toBeGreaterThanOrEqual(0);
    expect(calls.slice(batch + 1, batch + 3)).toEqual([
      "set system.@system[0].hostname='edge-7'",
      "commit system",
    ]);
  });

  it("downloads a file, resuming a partial one with Range, and checks its SHA-256", async () => {
    const bytes = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => i % 251));
    const fileId = await buildFile(f.t, f.domainId, { fileType: "file", filename: "data.bin", bytes });
    const work = path.join(router.root, "tmp", "cellfleet", "work");
    mkdirSync(work, { recursive: true });
    // A transfer cut off half-way: the agent asks only for the rest.
    writeFileSync(path.join(work, "data.bin.part"), bytes.subarray(0, 20_000));
    const resumed = await run({
      type: "download",
      file_id: fileId,
      args: { path: path.join(router.root, "srv") },
    });
    expect(resumed).toMatchObject({ status: "completed", code: 0 });
    expect(resumed.output).toContain(`downloaded ${bytes.length} bytes, sha256 ${sha256(bytes)}`);
    expect(readFileSync(path.join(router.root, "srv", "data.bin")).equals(bytes)).toBe(true);
    // A partial file that differs from the console's: had the agent fetched the whole file again it
    // would match; it kept its bytes and asked for the rest, so the SHA-256 check refuses the result.
    const wrong = Buffer.from(bytes.subarray(0, 20_000)).fill(0);
    writeFileSync(path.join(work, "data.bin.part"), wrong);
    const refused = await run({ type: "download", file_id: fileId });
    expect(refused).toMatchObject({ status: "failed", code: 75 });
    expect(refused.output).toContain(`SHA-256 mismatch: expected ${sha256(bytes)}`);
    expect(existsSync(path.join(work, "data.bin.part"))).toBe(false);
  });

  it("installs a package with opkg", async () => {
    const pkg = Buffer.alloc(12 * 1024, 9);
    const fileId = await buildFile(f.t, f.domainId, {
      fileType: "package",
      filename: "tcpdump.ipk",
      bytes: pkg,
    });
    const done = await run({ type: "pkg_install", file_id: fileId });
    expect(done).toMatchObject({ status: "completed", code: 0 });
    expect(done.output).toContain(`downloaded ${pkg.length} bytes`);
    expect(callIndex("opkg install ")).toBeGreaterThanOrEqual(0);
    expect(router.calls().find((call) => call.startsWith("opkg install "))).toMatch(/tcpdump\.ipk$/);
  });

  it("backs up with sysupgrade -b, restores that archive with sysupgrade -r without rebooting, sends the journal", async () => {
    const backup = await run({ type: "backup" });
    expect(backup).toMatchObject({ status: "completed", code: 0 });
    expect(callIndex("sysupgrade -b ")).toBeGreaterThanOrEqual(0);
    let backupId: string | null = null;
    await eventually(
      async () => {
        backupId = (await f.reports(admin.token, backup.command_id))[0]?.file_id ?? null;
        return backupId !== null;
      },
      "the backup stored",
      STEP_MS,
    );
    const boots = router.boots;
    const restored = await run({ type: "restore", file_id: backupId });
    expect(restored).toMatchObject({ status: "completed", code: 0 });
    expect(callIndex("sysupgrade -r ")).toBeGreaterThan(callIndex("sysupgrade -b "));
    expect(callIndex("reload_config")).toBeGreaterThan(callIndex("sysupgrade -r "));
    const journal = await run({ type: "journal" });
    expect(journal).toMatchObject({ status: "completed", code: 0 });
    expect(callIndex("logread")).toBeGreaterThanOrEqual(0);
    expect(router.boots).toBe(boots);
  });

  it("updates firmware: sysupgrade -T before sysupgrade, then hello names what the booted image says", async () => {
    const refusedImage = Buffer.from("NOT-AN-IMAGE\n".repeat(100));
    const badId = await buildFile(f.t, f.domainId, {
      fileType: "firmware",
      filename: "24.10.9.bin",
      bytes: refusedImage,
    });
    const refused = await run({ type: "fw_update", file_id: badId });
    expect(refused).toMatchObject({ status: "failed", code: 1 });
    expect(refused.output).toContain("not flashed");
    expect(router.calls().some((call) => /^sysupgrade \S*24\.10\.9\.bin$/.test(call))).toBe(false);

    const boots = router.boots;
    const image = Buffer.alloc(128 * 1024, 7);
    const fileId = await buildFile(f.t, f.domainId, {
      fileType: "firmware",
      filename: "24.10.0.bin",
      bytes: image,
    });
    const done = await run({ type: "fw_update", file_id: fileId, args: { version: "something else" } });
    expect(done).toMatchObject({ status: "completed", code: 0 });
    expect(done.output).toContain(`sha256 ${sha256(image)}`);
    await bootedAgain(boots);
    const calls = router.calls();
    const check = calls.findIndex((call) => /^sysupgrade -T \S*24\.10\.0\.bin$/.test(call));
    const flash = calls.findIndex((call) => /^sysupgrade \S*24\.10\.0\.bin$/.test(call));
    expect(check).toBeGreaterThanOrEqual(0);
    expect(flash).toBeGreaterThan(check);
    // The stand-in's flash wrote /etc/openwrt_release as the image says; hello reads it after the boot.
    await eventually(async () => (await deviceRow()).firmware === "24.10.0", "the booted version", STEP_MS);
  });

  it("resets to factory defaults: firstboot, a reboot, and a new epoch", async () => {
    const restarts = f.ingest.ingest.stats().epochsRestarted;
    const epochFile = path.join(router.root, "etc", "cellfleet", "epoch");
    const epoch = readFileSync(epochFile, "utf8").trim();
    const boots = router.boots;
    // The answer comes from the router once it has wiped its overlay and rebooted: 50 s at load 5
    // (PostgreSQL), over 60 s at load 7 (PGlite) — a wait of its own until that path is made faster.
    const done = await run({ type: "factory_reset" }, 2 * STEP_MS);
    expect(done).toMatchObject({ status: "completed", code: 0 });
    await bootedAgain(boots);
    expect(callIndex("firstboot -y")).toBeGreaterThanOrEqual(0);
    await eventually(() => f.ingest.ingest.stats().epochsRestarted > restarts, "a new epoch seen", STEP_MS);
    await eventually(
      () => existsSync(epochFile) && readFileSync(epochFile, "utf8").trim() !== epoch,
      "the new epoch written",
      STEP_MS,
    );
  });
});

describe("the OpenWrt agent over TLS", { timeout: 4 * STEP_MS }, () => {
  let t: TestApp;
  let ingest: DeviceIngest;
  let dir: string;
  let domainId: string;
  const routers: OpenWrtRouter[] = [];

  /** A self-signed certificate for localhost and its key, as PEM file paths. */
  function makeCertificate(name: string) {
    const cert = path.join(dir, `${name}.pem`);
    const key = path.join(dir, `${name}.key`);
    execFileSync("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-keyout",
      key,
      "-out",
      cert,
    ]);
    return { cert, key };
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cellfleet-agent-tls-"));
    const server = makeCertificate("server");
    t = await createTestApp();
    ingest = await startTestIngest(t, {
      tls: { port: 0, cert: readFileSync(server.cert, "utf8"), key: readFileSync(server.key, "utf8") },
    });
    domainId = (await buildDomain(t)).id;
  }, STEP_MS);
  afterAll(async () => {
    await Promise.all(routers.map((router) => router.stop()));
    await ingest?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  }, STEP_MS);

  async function start(caFile: string) {
    const device = await insertDevice(t, domainId);
    const router = await openWrtAgentDriver().start(
      { mqttUrl: `mqtts://localhost:${ingest.gateway.tlsPort}`, publicUrl: "http://127.0.0.1:9", caFile },
      { kind: "key", ident: device.ident, key: device.key as string },
    );
    routers.push(router);
    return { device, router };
  }

  it("reports when the broker's certificate chains to its CA file, and never connects otherwise", async () => {
    const { device } = await start(path.join(dir, "server.pem"));
    await eventually(
      async () =>
        (
          await t.db
            .selectFrom("devices")
            .select("firmware")
            .where("id", "=", device.id)
            .executeTakeFirstOrThrow()
        ).firmware === "23.05.3",
      "the hello over TLS",
      STEP_MS,
    );
    // Another CA: the agent refuses the server and says so, and the console hears nothing from it.
    const other = makeCertificate("other");
    const { device: refused, router } = await start(other.cert);
    const errors = path.join(router.root, "tmp", "cellfleet", "mqtt.err");
    await eventually(
      () => existsSync(errors) && /TLS error/i.test(readFileSync(errors, "utf8")),
      "a TLS error (mosquitto_sub: the certificate does not verify)",
      STEP_MS,
    );
    const row = await t.db
      .selectFrom("devices")
      .select("last_contact")
      .where("id", "=", refused.id)
      .executeTakeFirstOrThrow();
    expect(row.last_contact).toBeNull();
  });
});
