import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import {
  PROTOCOL_VERSION,
  type TerminalServerMessage,
  type TunnelOpenMessage,
  tunnelTopic,
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
import { runTerminal, type TerminalHandle, type TerminalOutcome } from "./terminal-session";
import { tunnelsRepo } from "./tunnels.repo";
import {
  endTunnelSession,
  isOpenable,
  publishPeers,
  recordingKey,
  requireTunnel,
  tunnelEndTopic,
} from "./tunnels.service";

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
  close(): Promise<void>;
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
export function createTunnelRuntime(ctx: AppContext, minuteMs = 60_000, routerSshPort = 22): TunnelRuntime {
  const node = createNodeId();
  const waiting = new Map<string, Waiting>();
  const running = new Set<TerminalHandle>();
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

  async function finishSession(domainId: string, id: string, outcome: TerminalOutcome): Promise<void> {
    // Bytes and recording first: once the row reads ended, its audit is complete.
    await ctx.storage.put(recordingKey(id), Readable.from([outcome.recording]));
    await tunnelsRepo(ctx.db).setOutcome(domainId, id, { up: outcome.bytesUp, down: outcome.bytesDown });
    if (!(await endTunnelSession(ctx, domainId, id, outcome.reason))) await publishPeers(ctx, domainId);
  }

  return {
    async openTerminal(session, id, size, send) {
      if (session.domainId === null) throw new AppError("ATUN_SRV_NOT_FOUND");
      const domainId = session.domainId;
      const row = await requireTunnel(ctx, domainId, id);
      if (row.author_id !== session.user.id || !isOpenable(row, ctx.now())) {
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
      const limits = await findDomainRemoteAccess(ctx, domainId);
      const password = randomBytes(24).toString("base64url");
      const keys = newEd25519Pair();
      const now = ctx.now();
      const expires = new Date(now.getTime() + ROUTER_DIAL_TIMEOUT_MS);
      await tunnelsRepo(ctx.db).setSecret(domainId, id, {
        hash: hashSecret(password),
        expiresAt: expires,
        node,
      });

      let handle: TerminalHandle | null = null;
      let pendingEnd: string | null = null;
      const unsubscribe = ctx.bus.subscribe(tunnelEndTopic(id), () => {
        pendingEnd = "ended_by_user";
        handle?.end("ended_by_user");
      });
      const dialTimer = setTimeout(() => {
        if (!waiting.delete(id)) return;
        unsubscribe();
        send({ type: "ended", reason: "no_router" });
        void endTunnelSession(ctx, domainId, id, "no_router");
      }, ROUTER_DIAL_TIMEOUT_MS);
      // What is typed before the router has dialled in is kept for its shell.
      const early: string[] = [];
      const proxy: TerminalHandle = {
        input: (data) => (handle ? handle.input(data) : early.push(data)),
        resize: (cols, rows) => handle?.resize(cols, rows),
        end: (reason) => {
          if (handle) handle.end(reason);
          else if (waiting.delete(id)) {
            clearTimeout(dialTimer);
            unsubscribe();
            void endTunnelSession(ctx, domainId, id, reason);
          }
        },
      };
      waiting.set(id, {
        domainId,
        onRouter: (link) => {
          clearTimeout(dialTimer);
          const started = runTerminal({
            link,
            privateKey: keys.private,
            cols: size.cols,
            rows: size.rows,
            limits: {
              idleMs: limits.idle_minutes * minuteMs,
              absoluteMs: Math.min(row.minutes, limits.max_minutes) * minuteMs,
              bytesPerSecond: limits.bandwidth_kib * 1024,
              quotaBytes: limits.quota_mib * 1024 * 1024,
            },
            send,
            onOpen: () => {
              void tunnelsRepo(ctx.db)
                .moveState(domainId, id, ["approved"], { state: "open", at: ctx.now() })
                .then(() => publishPeers(ctx, domainId));
            },
            onEnd: (outcome) => {
              running.delete(started);
              unsubscribe();
              send({ type: "ended", reason: pendingEnd === null ? outcome.reason : "ended_by_user" });
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
      const message: TunnelOpenMessage = {
        v: PROTOCOL_VERSION,
        seq: 0,
        ts: now.getTime(),
        type: "tunnel_open",
        session: id,
        kind: "terminal",
        host: ctx.config.tunnel.sshHost,
        port: endpoint.port(),
        user: id,
        password,
        host_key: endpoint.publicHostKey(),
        target_port: routerSshPort,
        public_key: keys.public,
        expires: expires.getTime(),
      };
      send({ type: "state", state: "connecting" });
      const publish = () => ctx.deviceLink.publish(tunnelTopic(device.ident), JSON.stringify(message));
      await publish();
      // A router that (re)connected a moment ago may not have subscribed yet: said again until it dials.
      const resend = setInterval(() => {
        if (!waiting.has(id)) return clearInterval(resend);
        publish().catch((error: unknown) =>
          ctx.log.warn({ err: error, id }, "remote access: tunnel_open not sent"),
        );
      }, TUNNEL_OPEN_RESEND_MS);
      return proxy;
    },
    async close() {
      await starting;
      waiting.clear();
      for (const handle of running) handle.end("closed");
      await endpoint?.close();
    },
  };
}
