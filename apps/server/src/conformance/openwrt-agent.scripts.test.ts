import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OPENWRT_AGENT_DIR } from "./openwrt-agent.driver";

// Every shell script of the OpenWrt agent and its test stand-ins passes Debian's shellcheck as POSIX sh.

const scripts = [
  ...readdirSync(path.join(OPENWRT_AGENT_DIR, "files", "lib")).map((name) => path.join("files", "lib", name)),
  ...readdirSync(path.join(OPENWRT_AGENT_DIR, "test", "standins")).map((name) =>
    path.join("test", "standins", name),
  ),
  path.join("files", "cellfleet.init"),
  path.join("files", "cellfleet.hotplug"),
  "build-ipk.sh",
];

describe("the OpenWrt agent's scripts", () => {
  it.each(scripts)("%s passes shellcheck", (script) => {
    const run = () =>
      execFileSync("shellcheck", ["-x", "-P", "SCRIPTDIR", "-s", "sh", script], {
        cwd: OPENWRT_AGENT_DIR,
        encoding: "utf8",
      });
    expect(run).not.toThrow();
  });

  it("builds an .ipk of at most 40 kB holding the agent, its init script and its configuration", () => {
    const out = execFileSync("sh", ["build-ipk.sh", mkdtempSync(path.join(tmpdir(), "cellfleet-ipk-"))], {
      cwd: OPENWRT_AGENT_DIR,
      encoding: "utf8",
    }).trim();
    const size = Number(execFileSync("wc", ["-c", out], { encoding: "utf8" }).split(" ")[0]);
    expect(size).toBeLessThanOrEqual(40_000);
    const list = (args: string[]) =>
      execFileSync("tar", args, { encoding: "utf8" }).split("\n").filter(Boolean);
    expect(list(["-tzf", out])).toEqual(["./debian-binary", "./control.tar.gz", "./data.tar.gz"]);
    const data = execFileSync("sh", ["-c", `tar -xOzf "${out}" ./data.tar.gz | tar -tz`], {
      encoding: "utf8",
    });
    for (const file of ["./usr/lib/cellfleet/agent.sh", "./etc/init.d/cellfleet", "./etc/config/cellfleet"])
      expect(data).toContain(file);
  });
});
