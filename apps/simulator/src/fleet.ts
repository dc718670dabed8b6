import { isProtocolIdent } from "@cellfleet/contract";
import type { BehaviourRates } from "./behaviour";
import type { RouterClaim } from "./device";
import { InflightLimit } from "./inflight";
import {
  DEFAULT_FLEET_SECRET,
  type DeviceKeyEntry,
  deriveFleetKey,
  type ZeroTouchJoin,
  zeroTouchEntry,
} from "./keys";
import { VirtualRouter } from "./router";

/** Where the fleet's device keys come from. */
export type FleetKeys =
  | { kind: "secret"; secret: string }
  | { kind: "single"; key: string }
  | { kind: "list"; entries: readonly DeviceKeyEntry[] }
  /** Routers the console does not know yet, joining by a zero-touch configuration; serials are the idents above. */
  | { kind: "zero-touch"; join: ZeroTouchJoin };

type FleetEntry = DeviceKeyEntry & {
  credentials?: { username: string; password: string };
  claim?: RouterClaim;
};

/** Options of a {@link Fleet}. */
export interface FleetOptions {
  url: string;
  /** How many routers; with a key list, at most its length (default: all of it). */
  devices: number;
  /** Ident prefix; idents are the prefix and a 6-digit number from 1 (`SIM000001`). */
  prefix?: string;
  seed?: number;
  intervalMs?: number;
  keys?: FleetKeys;
  maxInflightPerRouter?: number;
  maxInflightTotal?: number;
  /** Routers started per second, so a large fleet does not storm the broker (default 200). */
  connectRate?: number;
  behaviour?: Partial<BehaviourRates>;
  reconnectPeriodMs?: number;
  rebootDowntimeMs?: number;
  autoTick?: boolean;
  /** Chances that a command fails or hangs (see VirtualRouterOptions). */
  commandFailRate?: number;
  commandHangRate?: number;
  commandDelayMs?: number;
}

/** Counters of the whole fleet. */
export interface FleetStats {
  devices: number;
  connected: number;
  published: number;
  acked: number;
  retried: number;
  dropped: number;
  inflight: number;
  peakInflight: number;
  queued: number;
  commands: number;
  reboots: number;
}

/** The ident of the `index`-th simulated router (from 1): the prefix and a zero-padded 6-digit number. */
export function fleetIdent(prefix: string, index: number): string {
  return `${prefix}${String(index).padStart(6, "0")}`;
}

/**
 * N virtual routers against one broker, sharing a bound on unacknowledged publishes. Seeded: router
 * `i` of a fleet with seed `s` makes the same choices in every run.
 */
export class Fleet {
  readonly routers: VirtualRouter[] = [];
  readonly inflight: InflightLimit;
  private readonly options: FleetOptions;
  private stopped = false;
  private startTimer: NodeJS.Timeout | null = null;

  constructor(options: FleetOptions) {
    this.options = options;
    this.inflight = new InflightLimit(options.maxInflightTotal ?? 1000);
  }

  /** Creates the routers, derives their keys and starts them at the connect rate. Resolves when all are started. */
  async start(): Promise<void> {
    const { keys = { kind: "secret", secret: DEFAULT_FLEET_SECRET } } = this.options;
    const entries = await this.deviceKeys(keys);
    const seed = this.options.seed ?? 1;
    for (const [index, entry] of entries.entries()) {
      this.routers.push(
        new VirtualRouter({
          ident: entry.ident,
          key: entry.key,
          credentials: entry.credentials,
          claim: entry.claim,
          url: this.options.url,
          seed: `${seed}:${index}`,
          intervalMs: this.options.intervalMs,
          maxInflight: this.options.maxInflightPerRouter ?? 10,
          sharedInflight: this.inflight,
          behaviour: this.options.behaviour,
          reconnectPeriodMs: this.options.reconnectPeriodMs,
          rebootDowntimeMs: this.options.rebootDowntimeMs,
          autoTick: this.options.autoTick,
          commandFailRate: this.options.commandFailRate,
          commandHangRate: this.options.commandHangRate,
          commandDelayMs: this.options.commandDelayMs,
        }),
      );
    }
    const perBatch = Math.max(1, Math.round((this.options.connectRate ?? 200) / 10));
    for (let i = 0; i < this.routers.length && !this.stopped; i += perBatch) {
      await Promise.all(this.routers.slice(i, i + perBatch).map((router) => router.start()));
      if (i + perBatch < this.routers.length) {
        await new Promise<void>((resolve) => {
          this.startTimer = setTimeout(resolve, 100);
        });
      }
    }
  }

  /** Stops every router and closes every connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.startTimer) clearTimeout(this.startTimer);
    await Promise.all(this.routers.map((router) => router.stop()));
  }

  /** Counters summed over the routers. */
  stats(): FleetStats {
    const total: FleetStats = {
      devices: this.routers.length,
      connected: 0,
      published: 0,
      acked: 0,
      retried: 0,
      dropped: 0,
      inflight: 0,
      peakInflight: this.inflight.peak,
      queued: 0,
      commands: 0,
      reboots: 0,
    };
    for (const router of this.routers) {
      const stats = router.stats;
      if (stats.connected) total.connected++;
      total.published += stats.published;
      total.acked += stats.acked;
      total.retried += stats.retried;
      total.dropped += stats.dropped;
      total.inflight += stats.inflight;
      total.queued += stats.queued;
      total.commands += stats.commands;
      total.reboots += stats.reboots;
    }
    return total;
  }

  private async deviceKeys(keys: FleetKeys): Promise<FleetEntry[]> {
    const { devices, prefix = "SIM" } = this.options;
    if (keys.kind === "list") {
      if (devices > keys.entries.length) {
        throw new Error(`${devices} devices asked for, the keys file has ${keys.entries.length}`);
      }
      return keys.entries.slice(0, devices);
    }
    const idents = Array.from({ length: devices }, (_, i) => fleetIdent(prefix, i + 1));
    const bad = idents.find((ident) => !isProtocolIdent(ident));
    if (bad !== undefined) throw new Error(`ident ${bad} is not 4-64 Latin letters and digits`);
    if (keys.kind === "single") return idents.map((ident) => ({ ident, key: keys.key }));
    if (keys.kind === "zero-touch")
      return Promise.all(idents.map((serial) => zeroTouchEntry(keys.join, serial)));
    return Promise.all(
      idents.map(async (ident) => ({ ident, key: await deriveFleetKey(keys.secret, ident) })),
    );
  }
}
