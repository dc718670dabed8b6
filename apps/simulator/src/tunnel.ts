import type { Server as HttpServer } from "node:http";
import { type TunnelOpenMessage, TunnelOpenMessageSchema } from "@cellfleet/contract";
import ssh2 from "ssh2";
import type { RouterState } from "./device";
import { type ShellRouter, serveShell } from "./shell";
import { createWebUi, type WebUiRouter } from "./web-ui";

// The simulated router's side of remote access (ADR 038, docs/device-protocol.md): on `tunnel_open`
// it dials out to the console's SSH endpoint as a router's `dbclient -R` would, accepting only the
// pinned host key, and behind its one remote forward serves an sshd of its own (ssh2) that admits
// only the session's public key and gives the restricted shell of shell.ts.

const { Client, Server, utils } = ssh2;

/** The simulator's own sshd host key, made once per process. */
let simulatorHostKey: string | null = null;

/** An Ed25519 private key ssh2 can read back: about one in 250 it writes, it cannot, so those are made again. */
function newHostKey(): string {
  for (;;) {
    const key = utils.generateKeyPairSync("ed25519").private;
    if (!(utils.parseKey(key) instanceof Error)) return key;
  }
}

/** Parses a `tunnel_open` payload; null when it is not one. */
export function parseTunnelOpen(payload: Buffer): TunnelOpenMessage | null {
  try {
    const parsed = TunnelOpenMessageSchema.safeParse(JSON.parse(payload.toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The key blob of an OpenSSH public line (`ssh-ed25519 AAAA… comment`). */
function keyBlob(line: string): Buffer {
  return Buffer.from(line.trim().split(/\s+/)[1] ?? "", "base64");
}

/** Each simulated router's web server, made with its first web session. */
const webUis = new Map<string, HttpServer>();

/** Dials the console for one session; resolves when the router's side is closed again. */
export function openTunnel(message: TunnelOpenMessage, router: ShellRouter & WebUiRouter): Promise<void> {
  simulatorHostKey ??= newHostKey();
  const allowed = utils.parseKey(message.public_key ?? "");
  return new Promise((resolve) => {
    const client = new Client();
    if (message.kind === "web") {
      const server = webUis.get(router.ident) ?? createWebUi(router);
      webUis.set(router.ident, server);
      // Each channel through the forward is one connection to the router's web server.
      client.on("tcp connection", (_info, accept) => server.emit("connection", accept()));
    } else {
      client.on("tcp connection", (_info, accept) => sshd.injectSocket(accept() as never));
    }
    const sshd = new Server({ hostKeys: [simulatorHostKey as string] }, (connection) => {
      connection.on("authentication", (auth) => {
        const isSessionKey =
          auth.method === "publickey" &&
          !(allowed instanceof Error) &&
          auth.key.algo === allowed.type &&
          auth.key.data.equals(allowed.getPublicSSH());
        if (!isSessionKey) return auth.reject(["publickey"]);
        if (auth.signature && auth.blob && !allowed.verify(auth.blob, auth.signature, auth.hashAlgo)) {
          return auth.reject(["publickey"]);
        }
        auth.accept();
      });
      connection.on("ready", () => {
        connection.on("session", (accept) => {
          const session = accept();
          session.on("pty", (ok) => ok?.());
          session.on("window-change", (ok) => ok?.());
          session.on("shell", (ok) => {
            const stream = ok();
            serveShell(stream, router, () => {
              stream.exit(0);
              stream.end();
              connection.end();
            });
          });
        });
      });
      connection.on("error", () => connection.end());
      connection.on("close", () => client.end());
    });
    client.on("ready", () => {
      // As the console's endpoint does: no Nagle wait on small packets over the tunnel.
      client.setNoDelay(true);
      client.forwardIn("127.0.0.1", message.target_port, (error) => {
        if (error) client.end();
      });
    });
    client.on("error", () => resolve());
    client.on("close", () => resolve());
    client.connect({
      host: message.host,
      port: message.port,
      username: message.user,
      password: message.password,
      hostVerifier: (key: Buffer) => key.equals(keyBlob(message.host_key)),
      readyTimeout: 20_000,
    });
  });
}

/** `tunnel_open` on the router's tunnel topic: dial the console unless the password has expired. */
export function openTunnelFor(payload: Buffer, ident: string, state: RouterState, now: number): void {
  const message = parseTunnelOpen(payload);
  // The console says it again until the router dials; a session already dialled is not dialled twice.
  if (message === null || message.expires <= now || dialled.has(message.session)) return;
  dialled.add(message.session);
  const uptimeSeconds = () => Math.floor((Date.now() - state.bootedAt) / 1000);
  const router = { ident, model: state.model.model, firmware: state.firmware, uptimeSeconds };
  void openTunnel(message, router).then(() => dialled.delete(message.session));
}

/** Sessions this process is dialling or carrying. */
const dialled = new Set<string>();
