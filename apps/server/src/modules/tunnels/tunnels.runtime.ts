import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import {
  PROTOCOL_VERSION,
  type TerminalServerMessage,
  type TunnelEndReason,
  type TunnelKind,
  type TunnelOpenMessage,
  tunnelTopic,
  type WebTunnelOpen,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { createNodeId } from "../../platform/jobs/node-id";
import { findDomainRemoteAccess } from "../settings/settings.service";
import {
  hashSecret,
  newEd25519Pair,
  type RouterLink,
  type SshEndpoint,
  startSshEndpoint,
} from "./ssh-endpoint";
import {
  runTerminal,
  type TerminalHandle,
  type TerminalLimits,
  type TerminalOutcome,
} from "./terminal-session";
import { type TunnelRow, tunnelsRepo } from "./tunnels.repo";
import {
  endTunnelSession,
  isOpenable,
  publishPeers,
  recordingKey,
  requireTunnelOf,
  tunnelEndTopic,
} from "./tunnels.service";
import { createWebOrigins, type WebOrigins } from "./web-origins";
import { runWebProxy, type WebProxy } from "./web-proxy";

// What one server node runs for remote access (ADR 038): the SSH endpoint routers dial, and the
// sessions whose browser socket landed here. The node that publishes `tunnel_open` names its own
// endpoint, so the router and the browser meet on the same node: nothing crosses nodes but the
// "end now" on the bus and the rows in the database.

/** How long the router has to dial in after `tunnel_open`; also its password's lifetime. */
export const ROUTER_DIAL_TIMEOUT_MS = 30_000;

/** How often `tunnel_open` is said again while the router has not dialled in. */
const TUNNEL_OPEN_RESEND_MS = 5_000;

/** Remote access on this node. */
export interface TunnelRuntime {
  /** Opens a terminal session for its author; throws the §8 error when it cannot. */
  openTerminal(
    session: SessionContext,
    id: string,
    size: { cols: number; rows: number },
    send: (message: TerminalServerMessage) => void,
  ): Promise<TerminalHandle>;
  /**
   * Opens a web-interface session for its author: the session's own origin and its single-use link
   * (its requests wait for the router to dial in); a router that is not connected is an answer.
   */
  openWeb(session: SessionContext, id: string): Promise<WebTunnelOpen>;
  close(): Promise<void>;
}

/** The router's ports a session's forward reaches: its sshd and its web server (tests name stand-ins). */
export interface RouterPorts {
  ssh: number;
  web: number;
}

interface Waiting {
  domainId: string;
  onRouter(link: RouterLink): void;
}

/**
 * Remote access on this node. The endpoint starts with the first session opened here (a node that
 * never carries one never listens); if it cannot (a busy port), that is logged and sessions answer
 * ATUN_SRV_NOT_FOUND.
 */
export function createTunnelRuntime(
  ctx: AppContext,
  minuteMs = 60_000,
  routerPorts: RouterPorts = { ssh: 22, web: 80 },
): TunnelRuntime {
  const node = createNodeId();
  const waiting = new Map<string, Waiting>();
  const running = new Set<{ end(reason: TunnelEndReason): void }>();
  let webOrigins: WebOrigins | null = null;
  const origins = () => {
    webOrigins ??= createWebOrigins(ctx.config.tunnel.web, ctx.log, ctx.bus);
    return webOrigins;
  };
  // Under a wildcard host the front proxy may send any session's requests here: listen from the start.
  if (ctx.config.tunnel.web.hostPattern !== null) {
    origins()
      .listenForHosts()
      .catch((error: unknown) =>
        ctx.log.error({ err: error }, "remote access: the web sessions' listener did not start"),
      );
  }
  let endpoint: SshEndpoint | null = null;
  let starting: Promise<void> | null = null;
  const startEndpoint = () =>
    startSshEndpoint({
      port: ctx.config.tunnel.sshPort,
      hostKeyFile: ctx.config.tunnel.hostKeyFile,
      log: ctx.log,
      hooks: {
        takeCredential: async (user, password) => {
          if (!waiting.has(user)) return false;
          const row = await tunnelsRepo(ctx.db).useSecretAcrossDomains(user, hashSecret(password), ctx.now());
          return row !== undefined;
        },
        routerReady: (user, link) => {
          const entry = waiting.get(user);
          if (!entry) return false;
          waiting.delete(user);
          entry.onRouter(link);
          return true;
        },
      },
    }).then(
      (started) => {
        endpoint = started;
      },
      (error: unknown) => ctx.log.error({ err: error }, "remote access: the SSH endpoint did not start"),
    );

  /** Sessions' ends still being written: close() waits for them, so nothing writes after it. */
  const finishing = new Set<Promise<void>>();

  /** Records a session's end (its bytes, recording and state); a web session has no recording (null). */
  function finishSession(
    domainId: string,
    id: string,
    outcome: Omit<TerminalOutcome, "recording"> & { recording: string | null },
  ): Promise<void> {
    const written = writeOutcome(domainId, id, outcome);
    finishing.add(written);
    const forget = () => void finishing.delete(written);
    written.then(forget, forget);
    return written;
  }

  async function writeOutcome(
    domainId: string,
    id: string,
    outcome: Omit<TerminalOutcome, "recording"> & { recording: string | null },
  ): Promise<void> {
    // Bytes and recording first: once the row reads ended, its audit is complete.
    if (outcome.recording !== null)
      await ctx.storage.put(recordingKey(id), Readable.from([outcome.recording]));
    await tunnelsRepo(ctx.db).setOutcome(domainId, id, {
      up: outcome.bytesUp,
      down: outcome.bytesDown,
      hasRecording: outcome.recording !== null,
    });
    if (!(await endTunnelSession(ctx, domainId, id, outcome.reason))) await publishPeers(ctx, domainId);
  }

  interface Dialled {
    domainId: string;
    row: TunnelRow;
    limits: TerminalLimits;
    /** Stops hearing "end now" on the bus. */
    unsubscribe(): void;
    /** Whether "end now" was heard. */
    isEndedByUser(): boolean;
  }

  /**
   * Checks that `session` may open session `id` of `kind` now, gives it a single-use password and
   * sends the router `tunnel_open` (said again until it dials). `onRouter` hears the router's link,
   * `onNoRouter` that it did not dial in time, `onEndNow` an "end now" from any node.
   */
  async function dialRouter(
    session: SessionContext,
    id: string,
    kind: TunnelKind,
    hooks: {
      publicKey?: string;
      onRouter(link: RouterLink, dialled: Dialled): void;
      onNoRouter(): void;
      onEndNow(): void;
    },
  ): Promise<{ dialled: Dialled; cancel(reason: TunnelEndReason): void }> {
    if (session.domainId === null) throw new AppError("ATUN_SRV_NOT_FOUND");
    const domainId = session.domainId;
    const row = await requireTunnelOf(ctx, session, id);
    if (row.author_id !== session.user.id || row.kind !== kind || !isOpenable(row, ctx.now())) {
      throw new AppError("ATUN_SRV_NOT_FOUND", "The session link is unknown or expired");
    }
    const device = await tunnelsRepo(ctx.db).findRouter(domainId, row.device_id);
    const isConnected = device ? (ctx.deviceLink.isConnected(device.ident) ?? device.connected) : false;
    if (!device || isConnected === false) throw new AppError("PEER_NOT_CONNECTED");
    starting ??= startEndpoint();
    await starting;
    if (endpoint === null || !ctx.deviceLink.isAttached()) {
      throw new AppError("ATUN_SRV_NOT_FOUND", "No server node can carry the session");
    }
    const settings = await findDomainRemoteAccess(ctx, domainId);
    const password = randomBytes(24).toString("base64url");
    const now = ctx.now();
    const expires = new Date(now.getTime() + ROUTER_DIAL_TIMEOUT_MS);
    await tunnelsRepo(ctx.db).setSecret(domainId, id, {
      hash: hashSecret(password),
      expiresAt: expires,
      node,
    });
    let isEndedByUser = false;
    const unsubscribe = ctx.bus.subscribe(tunnelEndTopic(id), () => {
      isEndedByUser = true;
      hooks.onEndNow();
    });
    const dialled: Dialled = {
      domainId,
      row,
      limits: {
        idleMs: settings.idle_minutes * minuteMs,
        absoluteMs: Math.min(row.minutes, settings.max_minutes) * minuteMs,
        bytesPerSecond: settings.bandwidth_kib * 1024,
        quotaBytes: settings.quota_mib * 1024 * 1024,
      },
      unsubscribe,
      isEndedByUser: () => isEndedByUser,
    };
    const dialTimer = setTimeout(() => {
      if (!waiting.delete(id)) return;
      unsubscribe();
      hooks.onNoRouter();
      void endTunnelSession(ctx, domainId, id, "no_router");
    }, ROUTER_DIAL_TIMEOUT_MS);
    waiting.set(id, {
      domainId,
      onRouter: (link) => {
        clearTimeout(dialTimer);
        hooks.onRouter(link, dialled);
      },
    });
    const message: TunnelOpenMessage = {
      v: PROTOCOL_VERSION,
      seq: 0,
      ts: now.getTime(),
      type: "tunnel_open",
      session: id,
      kind,
      host: ctx.config.tunnel.sshHost,
      port: endpoint.port(),
      user: id,
      password,
      host_key: endpoint.publicHostKey(),
      target_port: kind === "terminal" ? routerPorts.ssh : routerPorts.web,
      ...(hooks.publicKey ? { public_key: hooks.publicKey } : {}),
      expires: expires.getTime(),
    };
    const publish = () => ctx.deviceLink.publish(tunnelTopic(device.ident), JSON.stringify(message));
    await publish();
    // A router that (re)connected a moment ago may not have subscribed yet: said again until it dials.
    const resend = setInterval(() => {
      if (!waiting.has(id)) return clearInterval(resend);
      publish().catch((error: unknown) =>
        ctx.log.warn({ err: error, id }, "remote access: tunnel_open not sent"),
      );
    }, TUNNEL_OPEN_RESEND_MS);
    return {
      dialled,
      cancel(reason) {
        if (!waiting.delete(id)) return;
        clearTimeout(dialTimer);
        unsubscribe();
        void endTunnelSession(ctx, domainId, id, reason);
      },
    };
  }

  const markOpen = (domainId: string, id: string) =>
    tunnelsRepo(ctx.db)
      .moveState(domainId, id, ["approved"], { state: "open", at: ctx.now() })
      .then(() => publishPeers(ctx, domainId));

  return {
    async openTerminal(session, id, size, send) {
      const keys = newEd25519Pair();
      let handle: TerminalHandle | null = null;
      // What is typed before the router has dialled in is kept for its shell.
      const early: string[] = [];
      const { cancel } = await dialRouter(session, id, "terminal", {
        publicKey: keys.public,
        onNoRouter: () => send({ type: "ended", reason: "no_router" }),
        onEndNow: () => handle?.end("ended_by_user"),
        onRouter: (link, dialled) => {
          const { domainId } = dialled;
          const started = runTerminal({
            link,
            privateKey: keys.private,
            cols: size.cols,
            rows: size.rows,
            limits: dialled.limits,
            send,
            onOpen: () => void markOpen(domainId, id),
            onEnd: (outcome) => {
              running.delete(started);
              dialled.unsubscribe();
              send({ type: "ended", reason: dialled.isEndedByUser() ? "ended_by_user" : outcome.reason });
              finishSession(domainId, id, outcome).catch((error: unknown) =>
                ctx.log.error({ err: error, id }, "remote access: recording the session's end failed"),
              );
            },
          });
          handle = started;
          running.add(started);
          for (const data of early.splice(0)) started.input(data);
        },
      });
      send({ type: "state", state: "connecting" });
      return {
        input: (data) => (handle ? handle.input(data) : early.push(data)),
        resize: (cols, rows) => handle?.resize(cols, rows),
        end: (reason) => (handle ? handle.end(reason) : cancel(reason)),
      };
    },

    async openWeb(session, id) {
      let proxy: WebProxy | null = null;
      let onReady: (ready: WebProxy | null) => void = () => {};
      const ready = new Promise<WebProxy | null>((resolve) => {
        onReady = resolve;
      });
      try {
        // The answer goes out at once: the call's transaction (its audit) must commit before the
        // router signs in with the password it saved. The origin's first requests wait for the router.
        await dialRouter(session, id, "web", {
          onNoRouter: () => {
            onReady(null);
            origins().close(id);
          },
          onEndNow: () => proxy?.end("ended_by_user"),
          onRouter: (link, dialled) => {
            const { domainId } = dialled;
            const started = runWebProxy({
              link,
              limits: dialled.limits,
              onEnd: (outcome) => {
                running.delete(started);
                origins().close(id);
                dialled.unsubscribe();
                const reason = dialled.isEndedByUser() ? "ended_by_user" : outcome.reason;
                finishSession(domainId, id, { ...outcome, reason, recording: null }).catch((error: unknown) =>
                  ctx.log.error({ err: error, id }, "remote access: recording the session's end failed"),
                );
              },
            });
            proxy = started;
            running.add(started);
            onReady(started);
            void markOpen(domainId, id);
          },
        });
      } catch (error) {
        // 502 would sign the browser out (spec §8): a router off line is an answer, not a failure.
        if (error instanceof AppError && error.code === "PEER_NOT_CONNECTED") {
          return { state: "ended", code: "PEER_NOT_CONNECTED" };
        }
        throw error;
      }
      return { state: "open", ...(await origins().open(id, ready)) };
    },

    async close() {
      await starting;
      waiting.clear();
      for (const handle of running) handle.end("closed");
      await webOrigins?.closeAll();
      await endpoint?.close();
      await Promise.allSettled([...finishing]);
    },
  };
}
