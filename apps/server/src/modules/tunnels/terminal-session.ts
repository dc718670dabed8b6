import type { Readable } from "node:stream";
import type { TerminalServerMessage, TunnelEndReason } from "@cellfleet/contract";
import ssh2 from "ssh2";
import type { RouterLink } from "./ssh-endpoint";

// One terminal session on this node (ADR 038): an SSH client, over a channel through the router's
// forward, into the router's own sshd, signed in with the session's key; its shell is piped to the
// browser's socket, counted each way, held to the domain's limits, and recorded as asciicast v2.

const { Client } = ssh2;

/** The user the console signs in as on the router's sshd (stock OpenWrt has only root). */
export const ROUTER_LOGIN = "root";

/** The domain's limits for one session, in the units the runtime counts. */
export interface TerminalLimits {
  idleMs: number;
  /** The approved duration, cut to the domain's absolute limit. */
  absoluteMs: number;
  /** Bytes a second each way. */
  bytesPerSecond: number;
  /** Bytes both ways together. */
  quotaBytes: number;
}

/** What the session reports when it ends. */
export interface TerminalOutcome {
  reason: TunnelEndReason;
  bytesUp: number;
  bytesDown: number;
  /** The asciicast v2 recording: a header line, then one `[seconds, "o", text]` line per output. */
  recording: string;
}

/** A running session: what the browser sends, and ending it from outside ("end now"). */
export interface TerminalHandle {
  input(data: string): void;
  resize(cols: number, rows: number): void;
  end(reason: TunnelEndReason): void;
}

/** How far behind the clock the pacer may fall and catch up (a late timer, a busy loop): a quarter second at the rate. */
const PACER_SLACK_MS = 250;

/**
 * Paces a stream to `bytesPerSecond`: each chunk moves the time the next may pass by its share of
 * the second; the stream is paused while that time is ahead of the clock. Time lost to a late timer
 * is made up, up to PACER_SLACK_MS, so the average holds to the rate on a busy machine too.
 */
export function createPacer(bytesPerSecond: number, now: () => number = Date.now) {
  let nextAt = 0;
  return {
    /** Milliseconds to wait after `bytes` passed before the next chunk may. */
    delayAfter(bytes: number): number {
      const current = now();
      nextAt = Math.max(nextAt, current - PACER_SLACK_MS) + (bytes / bytesPerSecond) * 1000;
      return Math.max(0, nextAt - current);
    },
  };
}

/** Opens the router's shell through `link` and runs it until it ends; `onEnd` hears the outcome once. */
export function runTerminal(options: {
  link: RouterLink;
  privateKey: string;
  cols: number;
  rows: number;
  limits: TerminalLimits;
  send: (message: TerminalServerMessage) => void;
  onOpen: () => void;
  onEnd: (outcome: TerminalOutcome) => void;
}): TerminalHandle {
  const { limits, send } = options;
  const startedAt = Date.now();
  const cast: string[] = [
    JSON.stringify({
      version: 2,
      width: options.cols,
      height: options.rows,
      timestamp: Math.floor(startedAt / 1000),
    }),
  ];
  let bytesUp = 0;
  let bytesDown = 0;
  let isOver = false;
  let shell: ssh2.ClientChannel | null = null;
  const client = new Client();
  const downPacer = createPacer(limits.bytesPerSecond);
  const upPacer = createPacer(limits.bytesPerSecond);
  let idleTimer: NodeJS.Timeout | undefined;
  const resetIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => finish("idle"), limits.idleMs);
  };
  const absoluteTimer = setTimeout(() => finish("limit"), limits.absoluteMs);
  let pendingUp: string[] = [];
  let upBlockedUntil = 0;

  function finish(reason: TunnelEndReason): void {
    if (isOver) return;
    isOver = true;
    clearTimeout(idleTimer);
    clearTimeout(absoluteTimer);
    shell?.close();
    client.end();
    options.link.close();
    options.onEnd({ reason, bytesUp, bytesDown, recording: `${cast.join("\n")}\n` });
  }

  const isOverQuota = () => bytesUp + bytesDown >= limits.quotaBytes;

  const writeUp = (data: string) => {
    if (!shell || isOver) return;
    const bytes = Buffer.byteLength(data);
    bytesUp += bytes;
    resetIdle();
    shell.write(data);
    upBlockedUntil = Date.now() + upPacer.delayAfter(bytes);
    if (isOverQuota()) finish("quota");
  };
  const flushUp = () => {
    const waiting = pendingUp;
    pendingUp = [];
    for (const data of waiting) writeUp(data);
  };

  options.link.onClose(() => finish("closed"));
  resetIdle();
  void options.link.openChannel().then(
    (channel) => {
      if (isOver) return;
      client.on("error", () => finish("failed"));
      client.on("ready", () => {
        client.shell({ term: "xterm-256color", cols: options.cols, rows: options.rows }, (error, stream) => {
          if (error || isOver) return finish("failed");
          shell = stream;
          options.onOpen();
          send({ type: "state", state: "open" });
          flushUp();
          stream.on("data", (chunk: Buffer) => {
            if (isOver) return;
            bytesDown += chunk.length;
            resetIdle();
            const text = chunk.toString("utf8");
            cast.push(JSON.stringify([(Date.now() - startedAt) / 1000, "o", text]));
            send({ type: "output", data: text });
            if (isOverQuota()) return finish("quota");
            const delay = downPacer.delayAfter(chunk.length);
            if (delay > 0) {
              stream.pause();
              setTimeout(() => stream.resume(), delay);
            }
          });
          stream.on("close", () => finish("closed"));
        });
      });
      try {
        client.connect({
          sock: channel as unknown as Readable,
          username: ROUTER_LOGIN,
          privateKey: options.privateKey,
          // The channel runs inside the router's own pinned, single-use sign-in (ADR 038).
          hostVerifier: () => true,
          readyTimeout: 20_000,
        });
      } catch {
        finish("failed"); // a key ssh2 cannot read: the session fails instead of hanging
      }
    },
    () => finish("failed"),
  );

  return {
    input(data) {
      if (isOver) return;
      if (!shell || Date.now() < upBlockedUntil) {
        pendingUp.push(data);
        if (shell) setTimeout(flushUp, upBlockedUntil - Date.now());
        return;
      }
      writeUp(data);
    },
    resize(cols, rows) {
      shell?.setWindow(rows, cols, 0, 0);
    },
    end: finish,
  };
}
