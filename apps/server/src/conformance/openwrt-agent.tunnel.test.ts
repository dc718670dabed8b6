import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionsFixture } from "../modules/actions/actions.test-support";
import { eventually, type TestDevice } from "../modules/ingest/ingest.test-support";
import { openTerminal, openTunnelsFixture, requestTunnel } from "../modules/tunnels/tunnels.test-support";
import { openWebSession, pathOf, testBrowser } from "../modules/tunnels/web-tunnel.test-support";
import { type OpenWrtRouter, openWrtAgentDriver } from "./openwrt-agent.driver";

// The OpenWrt agent's side of remote access (ADR 038, docs/device-protocol.md 4.7) with real programs:
// on `tunnel_open` the agent dials the console's SSH endpoint with dropbear's dbclient (or OpenSSH's
// ssh), pinning its host key, and forwards one port back to a real dropbear sshd standing in for the
// router's. That sshd runs in a mount namespace of its own where a temporary folder is root's home,
// so the session's key goes to a file of the test's, never to this machine's /root/.ssh.

/** A step's limit: generous, for a loaded two-core machine. */
const STEP_MS = 60_000;

/** A TCP port nobody listens on at the moment. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const isListening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** dropbear as the router's sshd on a free port: root's authorized keys are `keysFile`. */
async function startRouterSshd(): Promise<{ port: number; keysFile: string; stop(): void }> {
  const home = mkdtempSync(path.join(tmpdir(), "cellfleet-router-root-"));
  mkdirSync(path.join(home, ".ssh"), { mode: 0o700 });
  const hostKey = path.join(home, "dropbear_ed25519_host_key");
  execFileSync("dropbearkey", ["-t", "ed25519", "-f", hostKey], { stdio: "ignore" });
  const port = await freePort();
  // As root a mount namespace is enough; otherwise a user namespace maps the test's user to root.
  const namespaces = process.getuid?.() === 0 ? ["-m"] : ["-r", "-m"];
  const sshd: ChildProcess = spawn(
    "unshare",
    [
      ...namespaces,
      "--propagation",
      "private",
      "sh",
      "-c",
      'mount --bind "$1" /root && exec dropbear -F -E -s -p "127.0.0.1:$2" -r "$3" -P "$1/dropbear.pid"',
      "sh",
      home,
      String(port),
      hostKey,
    ],
    { detached: true, stdio: "ignore" },
  );
  await eventually(() => isListening(port), "the router's sshd listening", STEP_MS);
  return {
    port,
    keysFile: path.join(home, ".ssh", "authorized_keys"),
    stop: () => {
      try {
        if (sshd.pid !== undefined) process.kill(-sshd.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Busybox's httpd as the router's uhttpd on a free port: a page, and a CGI sign-in that sets a
 * cookie (with a Domain of the router's own, as a router's UI may) and shows the cookie it got.
 */
async function startRouterHttpd(): Promise<{ port: number; stop(): void }> {
  const root = mkdtempSync(path.join(tmpdir(), "cellfleet-router-www-"));
  mkdirSync(path.join(root, "cgi-bin"));
  writeFileSync(path.join(root, "index.html"), "<h1>router web interface</h1>\n");
  const login = path.join(root, "cgi-bin", "login");
  writeFileSync(
    login,
    [
      "#!/bin/sh",
      'printf "Content-Type: text/plain\\r\\n"',
      '[ -n "$HTTP_COOKIE" ] || printf "Set-Cookie: sysauth=s3cret; Domain=router.lan; Path=/cgi-bin/\\r\\n"',
      'printf "\\r\\ncookie: %s\\n" "$HTTP_COOKIE"',
      "",
    ].join("\n"),
  );
  chmodSync(login, 0o755);
  const port = await freePort();
  const httpd = spawn("busybox", ["httpd", "-f", "-p", `127.0.0.1:${port}`, "-h", root], {
    detached: true,
    stdio: "ignore",
  });
  await eventually(() => isListening(port), "the router's httpd listening", STEP_MS);
  return {
    port,
    stop: () => {
      try {
        if (httpd.pid !== undefined) process.kill(-httpd.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    },
  };
}

describe("the OpenWrt agent carries a remote-access session", { timeout: 4 * STEP_MS }, () => {
  let sshd: Awaited<ReturnType<typeof startRouterSshd>>;
  let httpd: Awaited<ReturnType<typeof startRouterHttpd>>;
  let f: ActionsFixture;
  let admin: { id: string; token: string };
  let device: TestDevice;
  let router: OpenWrtRouter;

  beforeAll(async () => {
    sshd = await startRouterSshd();
    httpd = await startRouterHttpd();
    f = await openTunnelsFixture({ routerSshPort: sshd.port, routerWebPort: httpd.port });
    admin = await f.person("admin");
    device = await f.device();
    router = await openWrtAgentDriver({ options: { authorized_keys: sshd.keysFile } }).start(
      { mqttUrl: f.ingest.gateway.url, publicUrl: f.t.config.publicUrl },
      { kind: "key", ident: device.ident, key: device.key as string },
    );
    // Online once its hello is stored: the agent's first subscription (`mosquitto_sub -E`, to learn
    // whether the broker grants it) connects and leaves under the router's id a moment before the
    // listener does, and a terminal opened in that gap is refused PEER_NOT_CONNECTED.
    await eventually(
      async () =>
        f.t.app.deviceLink.isConnected(device.ident) === true &&
        (
          await f.t.db
            .selectFrom("devices")
            .select("last_contact")
            .where("id", "=", device.id)
            .executeTakeFirst()
        )?.last_contact != null,
      "the agent online, its hello stored",
      STEP_MS,
    );
  }, 2 * STEP_MS);
  afterAll(async () => {
    await router?.stop();
    await f?.close();
    sshd?.stop();
    httpd?.stop();
  }, STEP_MS);

  const authorizedKeys = () => {
    try {
      return readFileSync(sshd.keysFile, "utf8");
    } catch {
      return "";
    }
  };

  /** The command lines of this machine's processes. */
  const processes = () => execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n");

  /** Opens a session as the admin through `client`, runs two commands in the router's shell, and exits. */
  async function shellThroughTunnel(client: "dbclient" | "ssh"): Promise<void> {
    const created = await requestTunnel(f, admin.token, device.id);
    const terminal = await openTerminal(f, admin.token, created._id);
    terminal.type("echo tunnel-$((6 * 7))\r");
    await terminal.waitForOutput("tunnel-42", STEP_MS);
    // The session's key is authorised while it stands, marked with the session, without forwarding.
    const line = authorizedKeys()
      .split("\n")
      .find((entry) => entry.endsWith(` cellfleet-session-${created._id}`));
    expect(line).toMatch(/^no-port-forwarding,no-agent-forwarding,no-X11-forwarding ssh-ed25519 AAAA/);
    // The client that carries it, asking for the one forward to the sshd.
    const carrier = processes().find((args) => args.includes(`${created._id}@127.0.0.1`));
    expect(carrier).toMatch(
      new RegExp(`^${client} -N (-K 30 )?-R ${sshd.port}:127\\.0\\.0\\.1:${sshd.port} `),
    );
    terminal.type("uname -s\r");
    await terminal.waitForOutput("Linux");
    terminal.type("exit\r");
    expect((await terminal.ended).reason).toBe("closed");
    // The console closed the connection: the client exits and the key is gone.
    await eventually(() => !authorizedKeys().includes(created._id), "the session's key removed", STEP_MS);
    await eventually(
      () => !processes().some((args) => args.includes(created._id)),
      "the tunnel's client ended",
      STEP_MS,
    );
  }

  it("dials out with dropbear's dbclient: the console gets the router's shell, the key only while it stands", async () => {
    await shellThroughTunnel("dbclient");
  });

  it("dials out with OpenSSH's ssh where it is the client", async () => {
    appendFileSync(path.join(router.root, "cellfleet.uci"), "cellfleet.main.tunnel_client='ssh'\n");
    await shellThroughTunnel("ssh");
  });

  it("opens the router's web interface: a forward to its httpd, no key authorised, its cookie kept", async () => {
    const created = await requestTunnel(f, admin.token, device.id, 30, "web");
    const link = await openWebSession(f, admin.token, created._id);
    const browser = testBrowser(new URL(link.origin).host);
    expect((await browser.request(pathOf(link.url))).status).toBe(302);
    // The first request waits for the agent to dial in, then reaches busybox's httpd.
    expect((await browser.request("/")).body).toContain("router web interface");
    const carrier = processes().find((args) => args.includes(`${created._id}@127.0.0.1`));
    expect(carrier).toMatch(new RegExp(`-R ${httpd.port}:127\\.0\\.0\\.1:${httpd.port} `));
    expect(authorizedKeys()).not.toContain(created._id);
    const signedIn = await browser.request("/cgi-bin/login");
    expect(signedIn.headers["set-cookie"]?.[0]).toMatch(/^cf_[0-9a-f]{32}_sysauth=s3cret; Path=\/cgi-bin\/$/);
    expect((await browser.request("/cgi-bin/login")).body).toContain("cookie: sysauth=s3cret");
    await f.post(admin.token, `/api/tunnel/${created._id}/end`);
    await eventually(
      () => !processes().some((args) => args.includes(created._id)),
      "the tunnel's client ended",
      STEP_MS,
    );
  });

  it("does not sign in to an endpoint whose host key is not the pinned one", async () => {
    // The console's messages reach this router with another key to pin, as a man in the middle would
    // hand it out: the client must refuse the endpoint before it sends the password.
    const stranger = ssh2.utils.generateKeyPairSync("ed25519").public;
    const link = f.t.app.deviceLink;
    const publish = link.publish.bind(link);
    link.publish = (topic, payload) =>
      publish(
        topic,
        topic.endsWith("/tunnel") ? JSON.stringify({ ...JSON.parse(payload), host_key: stranger }) : payload,
      );
    try {
      const created = await requestTunnel(f, admin.token, device.id);
      const terminal = await openTerminal(f, admin.token, created._id);
      expect((await terminal.ended).reason).toBe("no_router");
      const row = () =>
        f.t.db
          .selectFrom("tunnel_sessions")
          .select(["secret_used_at", "end_reason"])
          .where("id", "=", created._id)
          .executeTakeFirstOrThrow();
      await eventually(async () => (await row()).end_reason === "no_router", "the session ended", STEP_MS);
      // The password was never taken: the client gave up before signing in.
      expect((await row()).secret_used_at).toBeNull();
      await eventually(() => !authorizedKeys().includes(created._id), "the session's key removed", STEP_MS);
    } finally {
      link.publish = publish;
    }
  });
});
