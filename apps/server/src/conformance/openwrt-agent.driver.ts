import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { COMMAND_TYPES } from "@cellfleet/contract";
import type { ConformanceConsole, ConformanceIdentity, DeviceDriver, DeviceUnderTest } from "./driver";

// The OpenWrt agent (agents/openwrt) as a device under test: its scripts run under BusyBox ash with
// the real jq, mosquitto clients and openssl; only the OpenWrt-only programs (ubus, uci, mmcli,
// sysupgrade, opkg, firstboot, reboot, logread) are the stand-ins of agents/openwrt/test/standins,
// first on PATH, printing recorded outputs and logging what they were asked. A temporary directory
// stands in for /etc (kept over a reboot) and /tmp (lost).

/** agents/openwrt in this repository. */
export const OPENWRT_AGENT_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../agents/openwrt",
);

/** The ident the agent builds for a zero-touch join: the letters and digits of model and serial. */
export function zeroTouchIdent(model: string, serial: string): string {
  return `${model}${serial}`.replace(/[^A-Za-z0-9]/g, "").slice(0, 64);
}

/** One agent's temporary router: its files and what its stand-ins were asked to do. */
export interface OpenWrtRouter extends DeviceUnderTest {
  /** The temporary root: etc/ (kept over reboots), tmp/ (lost), the stand-ins' log. */
  readonly root: string;
  /** The stand-ins' calls so far, one `program args` a line. */
  calls(): string[];
  /** How many times the agent was started (the first start and every reboot). */
  readonly boots: number;
  /** Process ids of the agent's main shell and everything in its process group, for footprint checks. */
  pid(): number | undefined;
}

export interface OpenWrtDriverOptions {
  /** Collect interval in seconds (the agent's minimum is 10). */
  interval?: number;
  /** Extra `cellfleet.main.*` options. */
  options?: Record<string, string>;
}

/** The driver, whose routers also show their files and their stand-ins' calls. */
export interface OpenWrtDriver extends DeviceDriver {
  start(console: ConformanceConsole, identity: ConformanceIdentity): Promise<OpenWrtRouter>;
}

/** Starts the OpenWrt agent under `busybox sh` against a console. */
export function openWrtAgentDriver(driverOptions: OpenWrtDriverOptions = {}): OpenWrtDriver {
  return {
    name: "openwrt-agent",
    // Its hello names all of them (agents/openwrt/files/lib/agent.sh).
    commandTypes: COMMAND_TYPES,
    async start(console, identity) {
      const root = mkdtempSync(path.join(tmpdir(), "cellfleet-openwrt-"));
      const etc = path.join(root, "etc");
      const run = path.join(root, "tmp", "cellfleet");
      mkdirSync(etc, { recursive: true });
      const ident =
        identity.kind === "key" ? identity.ident : zeroTouchIdent(identity.model, identity.serial);
      const options: Record<string, string> = {
        broker: console.mqttUrl,
        interval: String(driverOptions.interval ?? 10),
        // Remote access's session keys go to the temporary router's sshd keys, never the machine's.
        authorized_keys: path.join(etc, "dropbear", "authorized_keys"),
        ...(identity.kind === "key"
          ? { ident: identity.ident, key: identity.key }
          : {
              zt_key_id: identity.keyId,
              zt_secret: identity.secret,
              model: identity.model,
              serial: identity.serial,
            }),
        ...(console.caFile ? { ca_file: console.caFile } : {}),
        ...driverOptions.options,
      };
      const uci = Object.entries(options)
        .map(([name, value]) => `cellfleet.main.${name}='${value}'\n`)
        .join("");
      writeFileSync(path.join(root, "cellfleet.uci"), `cellfleet.main=agent\n${uci}`);
      writeFileSync(path.join(etc, "openwrt_release"), "DISTRIB_ID='OpenWrt'\nDISTRIB_RELEASE='23.05.3'\n");
      const log = path.join(root, "standins.log");
      writeFileSync(log, "");
      const standins = path.join(OPENWRT_AGENT_DIR, "test", "standins");
      const env = {
        ...process.env,
        PATH: `${standins}:${process.env.PATH}`,
        CELLFLEET_LIB: path.join(OPENWRT_AGENT_DIR, "files", "lib"),
        CELLFLEET_STATE: path.join(etc, "cellfleet"),
        CELLFLEET_RUN: run,
        CELLFLEET_RELEASE_FILE: path.join(etc, "openwrt_release"),
        CELLFLEET_FIXTURES: path.join(OPENWRT_AGENT_DIR, "test", "fixtures"),
        CELLFLEET_STANDIN_LOG: log,
        CELLFLEET_UCI_FILE: path.join(root, "cellfleet.uci"),
      };
      let child: ChildProcess | null = null;
      let stopped = false;
      let boots = 0;
      let exited: Promise<void> = Promise.resolve();

      const boot = () => {
        // /tmp does not survive a boot.
        rmSync(path.join(root, "tmp"), { recursive: true, force: true });
        boots += 1;
        const output = path.join(root, "agent.log");
        const started = spawn("busybox", ["sh", path.join(env.CELLFLEET_LIB, "agent.sh")], {
          env,
          detached: true,
          stdio: ["ignore", "ignore", "pipe"],
        });
        started.stderr?.on("data", (chunk: Buffer) => writeFileSync(output, chunk, { flag: "a" }));
        child = started;
        exited = new Promise((resolve) => {
          started.on("exit", () => {
            child = null;
            resolve();
            if (stopped) return;
            const rebooted = path.join(root, "tmp", "reboot-requested");
            // The stand-in `reboot` killed the agent: the router boots again; otherwise procd respawns it.
            if (existsSync(rebooted)) setTimeout(() => !stopped && boot(), 300);
            else setTimeout(() => !stopped && boot(), 1000);
          });
        });
      };

      const kill = async () => {
        const pid = child?.pid;
        if (pid !== undefined) {
          try {
            process.kill(-pid, "SIGKILL");
          } catch {
            // Already gone.
          }
          await exited;
        }
      };

      boot();
      return {
        ident,
        root,
        get boots() {
          return boots;
        },
        calls: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
        pid: () => child?.pid,
        async stop() {
          stopped = true;
          await kill();
        },
        async restart() {
          stopped = true;
          await kill();
          // A booting router that lost its counters: a new epoch, seq from the start.
          rmSync(path.join(etc, "cellfleet"), { recursive: true, force: true });
          stopped = false;
          boot();
        },
      };
    },
  };
}
