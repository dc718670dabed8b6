import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, uniqueDeviceIdent } from "../../test/device-factories";
import { type BuiltUser, buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// The command-line tool (packages/cli) against a running console: the app listens on a free port,
// and each case runs `node packages/cli/bin/cellfleet.js` as a person would, with an API token
// made through the API, its config in a folder of its own. Exit codes are the README's.

const BIN = join(import.meta.dirname, "../../../../../packages/cli/bin/cellfleet.js");
const DAY = 86_400_000;

let t: TestApp;
let url: string;
let domainId: string;
let admin: BuiltUser;
let adminSession: string;
let ident: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the tool with its own config folder (and the console's address unless `env` says otherwise). */
function cli(configDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { PATH: process.env.PATH ?? "", CELLFLEET_CONFIG_DIR: configDir, NO_COLOR: "1", ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Starts the tool and answers its end, and a wait for a text on its stdout while it runs. */
function cliRunning(configDir: string, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", CELLFLEET_CONFIG_DIR: configDir, NO_COLOR: "1" },
  });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of waiters) if (waiter.pattern.test(stdout)) waiter.resolve();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ended = new Promise<Run>((resolve) => {
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
  return {
    ended,
    printed: (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        if (pattern.test(stdout)) resolve();
        else waiters.push({ pattern, resolve });
      }),
  };
}

/** Makes an API token as a signed-in session, carrying `permissions`. */
async function makeToken(session: string, permissions: string[]): Promise<string> {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/tokens/new",
    headers: { token: session },
    payload: { name: "cli test", expires_at: t.clock.now().getTime() + 30 * DAY, permissions },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().token as string;
}

/** A config folder signed in with a token carrying `permissions` of the person of `session`. */
async function signedInFolder(session: string, permissions: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cellfleet-cli-"));
  const login = await cli(dir, ["login", "--url", url, "--token", await makeToken(session, permissions)]);
  expect(login.code, login.stderr).toBe(0);
  return dir;
}

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  admin = await buildUser(t, { role: 2, domainId });
  adminSession = await signIn(t.app, admin);
  ident = (await buildDevice(t, domainId, { description: "cli router", tags: ["cli"] })).ident;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
});

const ADMIN_ACTIONS = [
  "account.self",
  "devices.view",
  "devices.create",
  "commands.view",
  "commands.create",
  "commands.cancel",
  "commands.approve",
  "files.view",
  "files.upload",
  "reports.view",
];

describe("cellfleet login", () => {
  it("checks the token, names its person, and keeps it readable by its owner only (0600)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cellfleet-cli-"));
    const token = await makeToken(adminSession, ["account.self"]);
    const login = await cli(dir, ["login", "--url", url, "--token", token]);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(admin.username);
    const file = join(dir, "config.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ url, token });
  });

  it("refuses an unknown token with exit 3 and saves nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cellfleet-cli-"));
    const login = await cli(dir, ["login", "--url", url, "--token", "cft_not-a-token"]);
    expect(login.code).toBe(3);
    expect(login.stderr).toContain("TOKEN_INVALID");
    await expect(stat(join(dir, "config.json"))).rejects.toThrow();
  });

  it("exits 3 before login, 2 on a wrong command line, 7 when the console is unreachable", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cellfleet-cli-"));
    expect((await cli(dir, ["devices", "list"])).code).toBe(3);
    expect((await cli(dir, ["devices", "fly"])).code).toBe(2);
    const away = await cli(dir, ["devices", "list"], {
      CELLFLEET_URL: "http://127.0.0.1:9",
      CELLFLEET_TOKEN: "cft_x",
    });
    expect(away.code).toBe(7);
  });
});

describe("cellfleet devices", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await signedInFolder(adminSession, ADMIN_ACTIONS);
  });

  it("lists routers as a table and as JSON", async () => {
    const table = await cli(dir, ["devices", "list"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/^IDENT\s+STATUS\s+MODEL/);
    expect(table.stdout).toContain(ident);
    const json = await cli(dir, ["devices", "list", "--json", "--tag", "cli"]);
    const answer = JSON.parse(json.stdout) as { total: number; devices: { ident: string }[] };
    expect(answer.devices.map((device) => device.ident)).toEqual([ident]);
  });

  it("shows one router by ident; an unknown one exits 5", async () => {
    const shown = await cli(dir, ["devices", "show", ident, "--json"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).device).toMatchObject({ ident, description: "cli router" });
    expect((await cli(dir, ["devices", "show", "NO-SUCH-ROUTER"])).code).toBe(5);
  });

  it("adds routers from a CSV file; a refused line exits 8", async () => {
    const fresh = uniqueDeviceIdent("CLI");
    const csv = join(dir, "routers.csv");
    await writeFile(csv, `${fresh}\n`);
    const added = await cli(dir, ["devices", "add", "--csv", csv, "--json"]);
    expect(added.code, added.stderr + added.stdout).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ created: 1, failed: 0 });
    const again = await cli(dir, ["devices", "add", "--csv", csv]);
    expect(again.code).toBe(8);
    expect(again.stdout).toContain("DEVICE_ALREADY_EXIST");
  });

  it("exits 4 for what the token does not carry", async () => {
    const readOnly = await signedInFolder(adminSession, ["devices.view"]);
    const csv = join(readOnly, "routers.csv");
    await writeFile(csv, `${uniqueDeviceIdent("CLI")}\n`);
    const refused = await cli(readOnly, ["devices", "add", "--csv", csv]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("PERMISSION_DENIED");
  });
});

describe("cellfleet command", () => {
  it("sends a command, follows it router by router, and exits 8 when it ends without success", async () => {
    const dir = await signedInFolder(adminSession, ADMIN_ACTIONS);
    const sent = await cli(dir, ["command", "send", "--type", "reboot", "--device", ident, "--json"]);
    expect(sent.code, sent.stderr).toBe(0);
    const command = JSON.parse(sent.stdout) as { _id: string; total: number };
    expect(command.total).toBe(1);
    const watching = cliRunning(dir, [
      "command",
      "watch",
      command._id,
      "--interval",
      "0.3",
      "--timeout",
      "50",
    ]);
    // The router is offline: its execution waits, as the watch shows, until the command is cancelled.
    await watching.printed(new RegExp(`${ident}\\s+(queued|sent)`));
    const cancel = await t.app.inject({
      method: "POST",
      url: `/api/command/${command._id}/cancel`,
      headers: { token: adminSession },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const watched = await watching.ended;
    expect(watched.code, watched.stderr).toBe(8);
    expect(watched.stdout).toMatch(new RegExp(`${ident}\\s+(queued|sent)`));
    expect(watched.stdout).toMatch(new RegExp(`${ident}\\s+cancelled`));
  });

  it("approves an assistant's command with an admin's token", async () => {
    const assistantSession = await signIn(t.app, await buildUser(t, { role: 3, domainId }));
    const assistantDir = await signedInFolder(assistantSession, ["devices.view", "commands.create"]);
    const sent = await cli(assistantDir, ["command", "send", "--type", "reboot", "--tag", "cli", "--json"]);
    expect(sent.code, sent.stderr).toBe(0);
    const command = JSON.parse(sent.stdout) as { _id: string; needs_approval: boolean };
    expect(command.needs_approval).toBe(true);
    const adminDir = await signedInFolder(adminSession, ADMIN_ACTIONS);
    const approved = await cli(adminDir, ["command", "approve", command._id, "--json"]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout).approver).not.toBeNull();
  });
});

describe("cellfleet files, export, rollout and completion", () => {
  it("uploads a file with progress on stderr and exports a list as CSV", async () => {
    const dir = await signedInFolder(adminSession, ADMIN_ACTIONS);
    const path = join(dir, "notes.txt");
    await writeFile(path, "x".repeat(300_000));
    const uploaded = await cli(dir, ["files", "upload", path, "--json"]);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(JSON.parse(uploaded.stdout)).toMatchObject({ filename: "notes.txt" });
    const exported = await cli(dir, ["export", "devices"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.split("\n")[0]).toContain("ident");
    expect(exported.stdout).toContain(ident);
  });

  it("reads a rollout as root: an unknown rule exits 5, an admin's token exits 4", async () => {
    const rootSession = await signIn(t.app, await buildUser(t, { role: 1 }));
    const rootDir = await signedInFolder(rootSession, ["software.view"]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await cli(rootDir, ["rollout", "status", unknown])).code).toBe(5);
    const adminDir = await signedInFolder(adminSession, ["devices.view"]);
    expect((await cli(adminDir, ["rollout", "status", unknown])).code).toBe(4);
  });

  it("prints a completion script naming every command group", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cellfleet-cli-"));
    const bash = await cli(dir, ["completion", "bash"]);
    expect(bash.code).toBe(0);
    for (const word of ["login", "devices", "command", "files", "export", "rollout"]) {
      expect(bash.stdout).toContain(word);
    }
    expect(bash.stdout).toContain("complete -F _cellfleet cellfleet");
  });
});
