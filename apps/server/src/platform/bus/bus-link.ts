import type { Logger } from "pino";
import type { Bus } from "./bus";

/** A bus over a NATS or Redis server, which can also say how its connection fares. */
export interface NetworkBus extends Bus {
  /** The link's state and its drop counter. */
  stats(): BusLinkStats;
  /** Resolves true once connected, or false after `timeoutMs` without a connection. */
  waitUntilConnected(timeoutMs: number): Promise<boolean>;
}

/** The URL as it may be logged: the password (or a lone token) replaced by `***`. */
export function maskBusUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    else if (parsed.username) parsed.username = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** Backoff between reconnect attempts: doubles from 250 ms up to 5 s, with up to 20% jitter. */
export function reconnectDelayMs(attempt: number): number {
  const base = Math.min(250 * 2 ** Math.max(0, attempt - 1), 5000);
  return Math.round(base * (1 + Math.random() * 0.2));
}

/** What a networked bus reports about itself. */
export interface BusLinkStats {
  isConnected: boolean;
  /** Publishes dropped since the bus was created because the bus server was unreachable. */
  dropped: number;
  /** Times the connection was lost after having been up. */
  outages: number;
  /** The last connection error seen, to say why a link does not come up. */
  lastError: string | null;
}

/**
 * The connection state of a networked bus, and its log lines: one when the link is lost, one when
 * it is back (with how many publishes were dropped meanwhile), never one per retry.
 */
export class BusLink {
  private isUp = false;
  private hasBeenUp = false;
  private lostAt = 0;
  private droppedAtLoss = 0;
  private readonly waiters = new Set<() => void>();
  readonly stats: BusLinkStats = { isConnected: false, dropped: 0, outages: 0, lastError: null };

  constructor(
    private readonly kind: string,
    private readonly maskedUrl: string,
    private readonly log?: Pick<Logger, "info" | "warn">,
  ) {}

  get isConnected(): boolean {
    return this.isUp;
  }

  up(): void {
    if (this.isUp) return;
    this.isUp = true;
    this.stats.isConnected = true;
    const fields = { bus: this.kind, url: this.maskedUrl };
    if (!this.hasBeenUp) this.log?.info(fields, "bus connected");
    else
      this.log?.info(
        {
          ...fields,
          down_ms: Date.now() - this.lostAt,
          dropped: this.stats.dropped - this.droppedAtLoss,
        },
        "bus connection is back; subscriptions renewed",
      );
    this.hasBeenUp = true;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  down(): void {
    if (!this.isUp) return;
    this.isUp = false;
    this.stats.isConnected = false;
    this.stats.outages++;
    this.lostAt = Date.now();
    this.droppedAtLoss = this.stats.dropped;
    this.log?.warn(
      { bus: this.kind, url: this.maskedUrl },
      "bus connection lost; reconnecting, publishes are dropped until it is back",
    );
  }

  /** The bus was closed on purpose: no longer connected, and nothing to log. */
  close(): void {
    this.isUp = false;
    this.stats.isConnected = false;
  }

  /** Remembers why the connection failed; the client retries on its own. */
  noteError(error: unknown): void {
    this.stats.lastError = error instanceof Error ? error.message : String(error);
  }

  /** Counts a publish that could not be sent. */
  drop(): void {
    this.stats.dropped++;
  }

  /** Resolves when the link is up, or after `timeoutMs`; true when it is up. */
  async waitUntilUp(timeoutMs: number): Promise<boolean> {
    if (this.isUp) return true;
    return new Promise<boolean>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(this.isUp);
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }
}
