import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { COMMAND_CODES, type CommandMessage } from "@cellfleet/contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeShellOutput, runCommand } from "./commands";
import { createRouterState } from "./device";
import { Random } from "./random";

const now = 1_767_225_600_000;
const state = createRouterState("SIM000001", new Random(1), now);
const firmware = new TextEncoder().encode("firmware image bytes");
const firmwareSha = createHash("sha256").update(firmware).digest("hex");

let server: Server;
let base = "";
const uploads: Buffer[] = [];

beforeEach(async () => {
  uploads.length = 0;
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url?.startsWith("/forbidden")) {
        response.writeHead(403).end();
      } else if (request.method === "PUT") {
        uploads.push(Buffer.concat(chunks));
        response.writeHead(204).end();
      } else {
        response.writeHead(200, { "content-type": "application/octet-stream" }).end(firmware);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const command = (over: Partial<CommandMessage>): CommandMessage => ({
  v: 1,
  seq: 1,
  ts: now,
  id: "c1",
  type: "shell",
  args: { script: "uptime" },
  ...over,
});

describe("runCommand", () => {
  it("answers a shell script with a fake line of output", async () => {
    const outcome = await runCommand(command({}), state, now);
    expect(outcome).toEqual({
      status: { id: "c1", state: "completed", code: 0, output: fakeShellOutput("uptime", state, now) },
      rebootAfter: false,
    });
    expect(outcome.status.output).toMatch(/up \d+ days/);
  });

  it("ends a script whose last line is `exit N` with code N, as a shell's exit status", async () => {
    const failed = await runCommand(command({ args: { script: "echo no\nexit 3" } }), state, now);
    expect(failed.status).toMatchObject({ state: "failed", code: 3 });
    const zero = await runCommand(command({ args: { script: "exit 0" } }), state, now);
    expect(zero.status).toMatchObject({ state: "completed", code: 0 });
  });

  it("asks for a reboot after reboot and factory_reset", async () => {
    expect((await runCommand(command({ type: "reboot", args: {} }), state, now)).rebootAfter).toBe(true);
    expect((await runCommand(command({ type: "factory_reset", args: {} }), state, now)).rebootAfter).toBe(
      true,
    );
  });

  it("uploads a backup with PUT to the signed URL", async () => {
    const file = { url: `${base}/upload?sig=x`, method: "PUT" as const, expires_at: now + 60_000 };
    const outcome = await runCommand(command({ type: "backup", args: {}, file }), state, now);
    expect(outcome.status).toMatchObject({ state: "completed", code: 0 });
    expect(uploads).toHaveLength(1);
    // A gzipped tar of the router's /etc, as OpenWrt's sysupgrade -b makes it.
    const tar = gunzipSync(uploads[0] as Buffer);
    expect(tar.subarray(257, 262).toString("ascii")).toBe("ustar");
    expect(tar.toString("latin1")).toContain(`hostname '${state.hostname}'`);
  });

  it("downloads firmware, checks size and SHA-256, then asks for a reboot", async () => {
    const file = {
      url: `${base}/fw.bin`,
      method: "GET" as const,
      expires_at: now + 60_000,
      size: firmware.byteLength,
      sha256: firmwareSha,
    };
    const outcome = await runCommand(command({ type: "fw_update", args: {}, file }), state, now);
    expect(outcome).toMatchObject({ status: { state: "completed", code: 0 }, rebootAfter: true });
    const named = { ...file, filename: "RUT9_R_00.07.08.bin" };
    const next = await runCommand(command({ type: "fw_update", args: {}, file: named }), state, now);
    expect(next.firmware).toBe("RUT9_R_00.07.08");
    const failed = await runCommand(
      command({ type: "fw_update", args: {}, file: { ...named, sha256: "0".repeat(64) } }),
      state,
      now,
    );
    expect(failed).toMatchObject({ rebootAfter: false, status: { state: "failed" } });
    expect(failed.firmware).toBeUndefined();
  });

  it.each([
    ["a checksum mismatch", { url: "/fw.bin", sha256: "0".repeat(64) }, /SHA-256 mismatch/],
    ["a size mismatch", { url: "/fw.bin", size: 3 }, /size/],
    ["an HTTP error", { url: "/forbidden" }, /HTTP 403/],
    ["an expired URL", { url: "/fw.bin", expires_at: now - 1 }, /expired/],
  ])("fails a download on %s", async (_name, over, message) => {
    const file = { method: "GET" as const, expires_at: now + 60_000, ...over, url: `${base}${over.url}` };
    const outcome = await runCommand(command({ type: "download", args: {}, file }), state, now);
    expect(outcome).toMatchObject({
      status: { state: "failed", code: COMMAND_CODES.transferFailed },
      rebootAfter: false,
    });
    expect(outcome.status.output).toMatch(message);
  });
});
