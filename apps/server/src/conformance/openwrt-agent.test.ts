import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ActionsFixture,
  isCommandFinished,
  openActionsFixture,
} from "../modules/actions/actions.test-support";
import { eventually, type TestDevice } from "../modules/ingest/ingest.test-support";
import { buildFile } from "../test/file-factories";
import { type OpenWrtRouter, openWrtAgentDriver } from "./openwrt-agent.driver";

// The OpenWrt agent end to end: BusyBox ash, jq, mosquitto_sub/mosquitto_pub and openssl against a
// console with its embedded broker, files over real HTTP: the reports, downloads checked against
// SHA-256, opkg, and a firmware update that sysupgrade -T checks before it is flashed and the router
// boots into. Only the OpenWrt-only programs are stand-ins (agents/openwrt/test/standins).

describe("the OpenWrt agent against a console", { timeout: 60_000 }, () => {
  let f: ActionsFixture;
  let admin: { id: string; token: string };
  let device: TestDevice;
  let router: OpenWrtRouter;
  let ticker: ReturnType<typeof setInterval>;
  const driver = openWrtAgentDriver();

  beforeAll(async () => {
    // The agent takes turns listening and sending on its one client id (agents/openwrt/README.md): a
    // command published while it sends is lost and published again once the acknowledgement is late.
    f = await openActionsFixture({ deliveryTimings: { ackTimeoutMs: 3000, watchdogIntervalMs: 1000 } });
    // The console's clock follows the wall clock, so its late-acknowledgement re-publishing runs.
    ticker = setInterval(() => f.t.clock.advance(500), 500);
    admin = await f.person("admin");
    device = await f.device();
    router = await driver.start(
      { mqttUrl: f.ingest.gateway.url, publicUrl: f.t.config.publicUrl },
      { kind: "key", ident: device.ident, key: device.key as string },
    );
  }, 60_000);
  afterAll(async () => {
    clearInterval(ticker);
    await router?.stop();
    await f?.close();
  }, 60_000);

  const collect = async (type: string) =>
    (
      await f.t.db
        .selectFrom("device_collects")
        .select("data")
        .where("device_id", "=", device.id)
        .where("type", "=", type)
        .executeTakeFirst()
    )?.data as Record<string, unknown> | undefined;

  async function run(body: Record<string, unknown>) {
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
      40_000,
    );
    const [report] = await f.reports(admin.token, command._id);
    return { command, report };
  }

  const deviceRow = () =>
    f.t.db.selectFrom("devices").selectAll().where("id", "=", device.id).executeTakeFirstOrThrow();

  it("says hello and reports every collect type, its modem from mmcli", async () => {
    await eventually(async () => (await deviceRow()).firmware === "23.05.3", "the hello stored", 20_000);
    for (const type of ["board", "interfaces", "routing", "modems", "ethernets", "tunnels"])
      await eventually(async () => (await collect(type)) !== undefined, `collect/${type}`, 20_000);
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

  it("downloads a file and installs a package with opkg, each checked against its SHA-256", async () => {
    const bytes = Buffer.from("#!/bin/sh\necho hello\n".repeat(300));
    const fileId = await buildFile(f.t, f.domainId, { fileType: "file", filename: "hello.sh", bytes });
    const download = await run({ type: "download", file_id: fileId });
    expect(download.report).toMatchObject({ code: 0 });
    expect(download.report.output).toContain(createHash("sha256").update(bytes).digest("hex"));
    const pkg = Buffer.alloc(20 * 1024, 9);
    const pkgId = await buildFile(f.t, f.domainId, {
      fileType: "package",
      filename: "tcpdump.ipk",
      bytes: pkg,
    });
    const install = await run({ type: "pkg_install", file_id: pkgId });
    expect(install.report).toMatchObject({ code: 0 });
    expect(install.report.output).toContain("Configuring tcpdump.");
    expect(router.calls().some((call) => /^opkg install .*tcpdump\.ipk$/.test(call))).toBe(true);
  });

  it("refuses a firmware image sysupgrade -T rejects, then flashes a good one after checking it", async () => {
    const bad = await buildFile(f.t, f.domainId, {
      fileType: "firmware",
      filename: "openwrt-23.05.4-bad.bin",
      bytes: Buffer.from("NOT-AN-IMAGE"),
    });
    const refused = await run({ type: "fw_update", file_id: bad });
    expect(refused.report).toMatchObject({ status: "failed", code: 1 });
    expect(refused.report.output).toContain("Image check failed.");
    const boots = router.boots;
    const good = await buildFile(f.t, f.domainId, {
      fileType: "firmware",
      filename: "23.05.5.bin",
      bytes: Buffer.alloc(128 * 1024, 5),
    });
    const flashed = await run({ type: "fw_update", file_id: good });
    expect(flashed.report).toMatchObject({ status: "completed", code: 0 });
    await eventually(async () => (await deviceRow()).firmware === "23.05.5", "the new version", 30_000);
    expect(router.boots).toBe(boots + 1);
    const upgrades = router
      .calls()
      .filter((call) => call.startsWith("sysupgrade") && call.includes("23.05.5.bin"));
    expect(upgrades.map((call) => call.split(" ")[1])).toEqual([
      "-T",
      expect.stringMatching(/23\.05\.5\.bin$/),
    ]);
  });
});
