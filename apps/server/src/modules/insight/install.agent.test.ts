import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentInstallLink, DeviceDetail } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActionsFixture, openActionsFixture } from "../actions/actions.test-support";
import { eventually, insertDevice } from "../ingest/ingest.test-support";
import { AGENT_DIR } from "./install.service";

// The newcomer's path end to end (issue 25): a router without a key is made on the console, its
// page's one-line install is run under Debian's `busybox sh` with BusyBox's wget, and the router
// comes online with its modem. Only OpenWrt's own programs are the stand-ins of
// agents/openwrt/test/standins, first on PATH: uci keeps the test's /etc/config/cellfleet, opkg
// unpacks the package into a temporary root, and rc.common starts the installed agent as procd would.

const STANDINS = path.join(AGENT_DIR, "test", "standins");

/** Runs a shell line under BusyBox; resolves with its exit code and what it wrote to stderr. */
function runBusybox(line: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("busybox", ["sh", "-c", line], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("the one-line install from a router's page", { timeout: 120_000 }, () => {
  let f: ActionsFixture;
  let root: string;

  beforeAll(async () => {
    f = await openActionsFixture();
    // The console tells routers its embedded broker's address as the test runs it.
    f.t.config.mqttPublicUrls = [f.ingest.gateway.url];
    root = mkdtempSync(path.join(tmpdir(), "cellfleet-install-"));
  }, 60_000);
  afterAll(async () => {
    try {
      process.kill(-Number(readFileSync(path.join(root, "agent.pid"), "utf8")), "SIGKILL");
    } catch {
      // Never started, or gone.
    }
    await f?.close();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it("installs the agent, configures it with uci, starts it, and the router is online with its modem within two minutes", async () => {
    const started = Date.now();
    const device = await insertDevice(f.t, f.domainId, { key: null });
    const admin = await f.person("admin");
    const answer = await f.post(admin.token, `/api/device/${device.id}/install`);
    expect(answer.statusCode, answer.body).toBe(200);
    const link = answer.json() as AgentInstallLink;
    expect(link.is_key_made).toBe(true);

    // The router: BusyBox's sh and wget first on PATH, then OpenWrt's programs' stand-ins.
    const bin = path.join(root, "bin");
    mkdirSync(bin, { recursive: true });
    for (const applet of ["sh", "wget"]) symlinkSync("/usr/bin/busybox", path.join(bin, applet));
    mkdirSync(path.join(root, "etc"), { recursive: true });
    writeFileSync(path.join(root, "etc", "rc.common"), `exec sh '${STANDINS}/rc.common' "$@"\n`);
    writeFileSync(
      path.join(root, "etc", "openwrt_release"),
      "DISTRIB_ID='OpenWrt'\nDISTRIB_RELEASE='23.05.3'\n",
    );
    writeFileSync(path.join(root, "cellfleet.uci"), "");
    writeFileSync(path.join(root, "standins.log"), "");
    const env = {
      ...process.env,
      PATH: `${bin}:${STANDINS}:${process.env.PATH}`,
      CELLFLEET_ROOT: root,
      CELLFLEET_LIB: path.join(root, "usr", "lib", "cellfleet"),
      CELLFLEET_STATE: path.join(root, "etc", "cellfleet"),
      CELLFLEET_RUN: path.join(root, "tmp", "cellfleet"),
      CELLFLEET_RELEASE_FILE: path.join(root, "etc", "openwrt_release"),
      CELLFLEET_FIXTURES: path.join(AGENT_DIR, "test", "fixtures"),
      CELLFLEET_STANDIN_LOG: path.join(root, "standins.log"),
      CELLFLEET_UCI_FILE: path.join(root, "cellfleet.uci"),
    };

    const run = await runBusybox(link.command, env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("installed and started");

    const key = (
      await f.t.db
        .selectFrom("devices")
        .select("aes_key")
        .where("id", "=", device.id)
        .executeTakeFirstOrThrow()
    ).aes_key;
    const uci = readFileSync(env.CELLFLEET_UCI_FILE, "utf8");
    expect(uci).toContain(`cellfleet.main.broker='${f.ingest.gateway.url}'`);
    expect(uci).toContain(`cellfleet.main.ident='${device.ident}'`);
    expect(uci).toContain(`cellfleet.main.key='${key}'`);
    const calls = readFileSync(env.CELLFLEET_STANDIN_LOG, "utf8");
    expect(calls).toMatch(/^opkg install \S+\/cellfleet-agent\.ipk$/m);
    expect(calls).toMatch(/^rc\.common \S+\/etc\/init\.d\/cellfleet enable$/m);
    expect(calls).toMatch(/^rc\.common \S+\/etc\/init\.d\/cellfleet restart$/m);
    // The package's files, unpacked where opkg puts them.
    expect(readFileSync(path.join(root, "etc", "init.d", "cellfleet"), "utf8")).toContain("procd");

    const collect = async (type: string) =>
      (
        await f.t.db
          .selectFrom("device_collects")
          .select("data")
          .where("device_id", "=", device.id)
          .where("type", "=", type)
          .executeTakeFirst()
      )?.data as Record<string, unknown> | undefined;
    // Online as its page shows it (the status of POST /api/device/{dev_id}).
    const status = async () =>
      ((await f.post(admin.token, `/api/device/${device.id}`)).json() as DeviceDetail).device.status;
    await eventually(async () => (await status()) === "online", "the router online", 60_000);
    await eventually(async () => (await collect("modems")) !== undefined, "its modems reported", 60_000);
    expect(await collect("modems")).toMatchObject({
      modems: [{ module: "Quectel EC25-E", operator: "MegaFon" }],
    });
    expect(Date.now() - started).toBeLessThan(120_000);

    // The link served once: a second run of the same line fetches nothing.
    const again = await runBusybox(link.command, env);
    expect(again.stderr).toMatch(/401/);
  });
});
