import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import ssh2 from "ssh2";

// The console's SSH endpoint for remote access (ADR 038), served with the `ssh2` library. Routers
// dial out to it and sign in with a session's single-use password; the endpoint then carries only
// the one remote forward the router asks for and opens channels to it for the session that holds
// it. It has no shell, runs no command, and forwards nothing anywhere else.

const { Server, utils } = ssh2;

/** A router signed in for a session and offering its one forward. */
export interface RouterLink {
  /** Opens a channel through the router's forward to its target (its sshd or web server). */
  openChannel(): Promise<NodeJS.ReadWriteStream & { close?: () => void; destroy?: () => void }>;
  /** Closes the router's SSH connection (and so its tunnel). */
  close(): void;
  /** Called once when the router's connection closes. */
  onClose(handler: () => void): void;
}

/** What the endpoint asks of the tunnels' service. */
export interface EndpointHooks {
  /** Takes a session's credential once: the session id when the password is right, null otherwise. */
  takeCredential(user: string, password: string): Promise<boolean>;
  /** A router signed in as `user` offers its forward; false when no session here waits for it. */
  routerReady(user: string, link: RouterLink): boolean;
}

/** The endpoint as it runs on this node. */
export interface SshEndpoint {
  /** The port it listens on. */
  port(): number;
  /** The public host key routers pin, OpenSSH form (`ssh-ed25519 AAAA…`). */
  publicHostKey(): string;
  close(): Promise<void>;
}

/**
 * A new Ed25519 key pair in OpenSSH form. ssh2 1.17's `generateKeyPairSync` writes about one private
 * key in 250 that its own `parseKey` then refuses ("Malformed OpenSSH private key"); such a pair is
 * made again.
 */
export function newEd25519Pair(): { private: string; public: string } {
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519");
    if (!(utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}

/** The host key at `file`, made (Ed25519, mode 0600) when it does not exist yet. */
export async function loadOrCreateHostKey(file: string): Promise<string> {
  if (existsSync(file)) return readFile(file, "utf8");
  const pair = newEd25519Pair();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, pair.private, { mode: 0o600 });
  await chmod(file, 0o600);
  return pair.private;
}

/** The OpenSSH public line of a private key: `ssh-ed25519 <base64>`. */
export function publicLineOf(privateKey: string): string {
  const parsed = utils.parseKey(privateKey);
  if (parsed instanceof Error) throw parsed;
  return `${parsed.type} ${parsed.getPublicSSH().toString("base64")}`;
}

/** A sign-in attempt takes this long at most before the connection is closed. */
const AUTH_TIMEOUT_MS = 20_000;

/** Starts the endpoint on `port` (0: any free one) with the host key in `hostKeyFile`. */
export async function startSshEndpoint(options: {
  port: number;
  host?: string;
  hostKeyFile: string;
  hooks: EndpointHooks;
  log: FastifyBaseLogger;
}): Promise<SshEndpoint> {
  const hostKey = await loadOrCreateHostKey(options.hostKeyFile);
  const publicKey = publicLineOf(hostKey);
  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    let user: string | null = null;
    let hasForward = false;
    const authTimer = setTimeout(() => client.end(), AUTH_TIMEOUT_MS);
    // Without TCP_NODELAY, Nagle's wait on our small packets (window adjustments, channel opens)
    // meets the router's delayed acknowledgements: a 10 MiB download through a web session took
    // ~64 ms a round warm instead of ~12 (ssh2 leaves the option to us; see bench/README.md).
    // (ssh2's server-side connection has setNoDelay, as its client does; its types leave it out.)
    (client as unknown as { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    client.on("error", (error) => options.log.debug({ err: error }, "tunnel endpoint: client error"));
    client.on("authentication", (auth) => {
      if (auth.method !== "password") return auth.reject(["password"]);
      void options.hooks.takeCredential(auth.username, auth.password).then(
        (isTaken) => {
          if (!isTaken) return auth.reject([]);
          user = auth.username;
          auth.accept();
        },
        (error) => {
          options.log.warn({ err: error }, "tunnel endpoint: credential check failed");
          auth.reject([]);
        },
      );
    });
    client.on("ready", () => {
      clearTimeout(authTimer);
      // No shell, no command, no subsystem, no forward from the console side: only `tcpip-forward`.
      client.on("session", (_accept, reject) => reject());
      client.on("tcpip", (_accept, reject) => reject());
      client.on("request", (accept, reject, name, info) => {
        if (name !== "tcpip-forward" || hasForward || user === null || !accept || !reject) {
          reject?.();
          return;
        }
        const bound = info as { bindAddr: string; bindPort: number };
        hasForward = true;
        const closeHandlers: (() => void)[] = [];
        client.on("close", () => {
          for (const handler of closeHandlers) handler();
        });
        const link: RouterLink = {
          openChannel: () =>
            new Promise((resolve, fail) => {
              client.forwardOut(bound.bindAddr, bound.bindPort, "127.0.0.1", 0, (error, channel) =>
                error ? fail(error) : resolve(channel),
              );
            }),
          close: () => client.end(),
          onClose: (handler) => closeHandlers.push(handler),
        };
        // The router records its forward on this reply; only then may channels be opened to it.
        accept(bound.bindPort === 0 ? 1 : bound.bindPort);
        if (!options.hooks.routerReady(user, link)) client.end();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "0.0.0.0", () => resolve());
  });
  return {
    port: () => (server.address() as AddressInfo).port,
    publicHostKey: () => publicKey,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** SHA-256 of a credential, as stored. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
