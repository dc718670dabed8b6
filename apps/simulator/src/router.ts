import { EventEmitter } from "node:events";
import {
  COLLECT_TYPES,
  COMMAND_CODES,
  type CommandMessage,
  collectTopic,
  commandStatusTopic,
  commandTopic,
  deriveDeviceToken,
  eventTopic,
  helloTopic,
  PROTOCOL_VERSION,
  parseCommandMessage,
  tunnelTopic,
} from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { type BehaviourRates, DEFAULT_BEHAVIOUR, type PendingEvent, stepRouter } from "./behaviour";
import { buildCollect } from "./collects";
import { readCommandId, runCommand, type StatusBody } from "./commands";
import { createRouterState, type RouterClaim, type RouterState, rebootState } from "./device";
import type { InflightLimit } from "./inflight";
import { Outbox, type Outgoing } from "./outbox";
import { Random } from "./random";
import { openTunnelFor } from "./tunnel";

/** Agent version the simulated routers announce in `hello`. */
export const SIMULATOR_AGENT_VERSION = "cellfleet-sim/0.1.0";

/** Options of a {@link VirtualRouter}. */
export interface VirtualRouterOptions {
  ident: string;
  /** The device's 64-hex AES key; only the token derived from it is sent. */
  key: string;
  /** Broker URL, e.g. mqtt://127.0.0.1:1883. */
  url: string;
  /** Seed of every random choice; defaults to the ident. */
  seed?: number | string;
  /** Time between collect rounds, ms (default 10 s). */
  intervalMs?: number;
  /** Most unacknowledged QoS 1 publishes of this router (default 10). */
  maxInflight?: number;
  /** A fleet-wide bound shared with other routers. */
  sharedInflight?: InflightLimit;
  /** Most messages waiting to be sent; beyond it the oldest is dropped (default 500). */
  maxQueued?: number;
  /** Chances per tick; unset ones keep {@link DEFAULT_BEHAVIOUR}. */
  behaviour?: Partial<BehaviourRates>;
  /** Wait between reconnection attempts, ms (default 2 s). */
  reconnectPeriodMs?: number;
  /** How long a reboot keeps the router offline, ms (default 5 s). */
  rebootDowntimeMs?: number;
  /** How long a command "runs" before it completes, ms (default 500). */
  commandDelayMs?: number;
  /** Chance that an accepted command fails (code 1) instead of running (default 0). */
  commandFailRate?: number;
  /** Chance that an accepted command hangs: it never reports again, so the console's watchdog times it out (default 0). */
  commandHangRate?: number;
  /** Tick on a timer (default true); tests turn it off and call {@link VirtualRouter.tick}. */
  autoTick?: boolean;
  /** First sequence number (default: the wall clock in ms, so a restarted simulator never goes back). */
  startSeq?: number;
  /**
   * The numbering `seq` belongs to, sent on every message (docs/device-protocol.md 5.1): a router
   * whose counters restarted (`startSeq` 1 after a reset) gives a new one. Unset: no `epoch` is sent.
   */
  epoch?: number;
  now?: () => number;
  /**
   * Connect with these credentials instead of ident and token: a zero-touch router's `zt1:` user
   * name and its password (docs/device-protocol.md, "Zero-touch join"). A refused CONNECT is retried
   * every reconnect period, as a router waiting in the adoption list does.
   */
  credentials?: { username: string; password: string };
  /** The model and serial its zero-touch credentials claim, which its hello then reports too. */
  claim?: RouterClaim;
}

/** Counters of one router. */
export interface RouterStats {
  connected: boolean;
  connects: number;
  published: number;
  acked: number;
  /** Publishes whose connection closed before the PUBACK; they are sent again. */
  retried: number;
  dropped: number;
  inflight: number;
  peakInflight: number;
  queued: number;
  commands: number;
  reboots: number;
  lastError: string | null;
}

interface RouterEvents {
  connected: [];
  disconnected: [];
  acked: [topic: string, payload: string];
  command: [command: CommandMessage];
  problem: [error: Error];
}

/** Command ids remembered, so a command delivered twice runs once and gets its last status again. */
const REMEMBERED_COMMANDS = 256;

/**
 * One simulated router speaking the device protocol: it connects with its derived token, says hello,
 * publishes its collects every interval with QoS 1 under an in-flight bound, raises events as its
 * state wanders, answers commands, reboots now and then, and keeps unacknowledged reports across
 * reconnects and reboots.
 */
export class VirtualRouter extends EventEmitter<RouterEvents> {
  readonly ident: string;
  readonly state: RouterState;
  private readonly options: VirtualRouterOptions;
  private readonly random: Random;
  /** Draws whether a command fails or hangs, apart from the state's randomness. */
  private readonly commandLuck: Random;
  private readonly timing: Random;
  private readonly rates: BehaviourRates;
  private readonly now: () => number;
  private readonly outbox: Outbox;
  private client: MqttClient | null = null;
  private password = "";
  private seq: number;
  private startedReason: string | null = null;
  private timers = new Set<NodeJS.Timeout>();
  private tickTimer: NodeJS.Timeout | null = null;
  private rebooting = false;
  /** The firmware a successful `fw_update` installed; the router runs it from its next boot. */
  private pendingFirmware: string | null = null;
  private stopped = false;
  private readonly commandStatuses = new Map<string, StatusBody>();
  private readonly counters = { connects: 0, commands: 0, reboots: 0 };
  private connected = false;
  private lastError: string | null = null;

  constructor(options: VirtualRouterOptions) {
    super();
    this.options = options;
    this.ident = options.ident;
    this.now = options.now ?? Date.now;
    this.random = new Random(options.seed ?? options.ident);
    this.timing = this.random.fork("timing");
    this.commandLuck = this.random.fork("commands");
    this.rates = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
    this.outbox = new Outbox({
      maxInflight: options.maxInflight ?? 10,
      shared: options.sharedInflight,
      maxQueued: options.maxQueued ?? 500,
      onAcked: (item) => this.emit("acked", item.topic, item.payload),
    });
    this.seq = options.startSeq ?? Date.now();
    this.state = createRouterState(options.ident, this.random, this.now(), options.claim);
  }

  /** Counters as of now. */
  get stats(): RouterStats {
    return { ...this.counters, ...this.outbox.stats, connected: this.connected, lastError: this.lastError };
  }

  /** The MQTT client of the current connection (tests watch its packets). */
  get mqttClient(): MqttClient | null {
    return this.client;
  }

  /** Derives the token and connects; collects start on the interval, the first after a random delay. */
  async start(): Promise<void> {
    this.password =
      this.options.credentials?.password ?? (await deriveDeviceToken(this.ident, this.options.key));
    this.connect();
    if (this.options.autoTick ?? true) this.scheduleTick(this.timing.float(0, this.intervalMs));
  }

  /** Disconnects and stops every timer. Unsent reports are discarded with the process. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.tickTimer) clearTimeout(this.tickTimer);
    await this.disconnect();
  }

  /** One collect round: the state moves on, events are raised, all the collects are queued. */
  tick(): void {
    const result = stepRouter(this.state, this.random, this.rates, this.now(), this.intervalMs / 1000);
    for (const event of result.events) this.publishEvent(event);
    this.publishCollects();
    if (result.reboot) this.reboot(this.random.pick(["watchdog", "power_loss"]));
  }

  /** Queues a full set of collects. */
  publishCollects(): void {
    for (const type of COLLECT_TYPES)
      this.enqueue(collectTopic(this.ident, type), buildCollect(type, this.state, this.now()));
  }

  /** Queues an event. */
  publishEvent(event: PendingEvent): void {
    this.enqueue(eventTopic(this.ident), { ...event });
  }

  /**
   * Reboots: drops the connection at once (unacknowledged reports are kept, as a real agent keeps them
   * on flash), stays offline for the downtime, then boots with uptime 0, says hello and raises
   * `router_started`.
   */
  reboot(reason: string): void {
    if (this.rebooting || this.stopped) return;
    this.rebooting = true;
    this.counters.reboots++;
    if (this.tickTimer) clearTimeout(this.tickTimer);
    void this.disconnect().then(() => {
      this.later(this.options.rebootDowntimeMs ?? 5000, () => {
        rebootState(this.state, this.random, this.now());
        if (this.pendingFirmware !== null) this.state.firmware = this.pendingFirmware;
        this.pendingFirmware = null;
        this.startedReason = reason;
        this.rebooting = false;
        this.connect();
        if (this.options.autoTick ?? true) this.scheduleTick(this.intervalMs);
      });
    });
  }

  private get intervalMs(): number {
    return this.options.intervalMs ?? 10_000;
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) run();
    }, ms);
    this.timers.add(timer);
  }

  private scheduleTick(delayMs: number): void {
    this.tickTimer = setTimeout(() => {
      if (this.stopped || this.rebooting) return;
      this.tick();
      if (!this.rebooting) this.scheduleTick(this.intervalMs);
    }, delayMs);
  }

  private connect(): void {
    const client = mqtt.connect(this.options.url, {
      clientId: this.ident,
      username: this.options.credentials?.username ?? this.ident,
      password: this.password,
      protocolVersion: 4,
      clean: true,
      keepalive: 60,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
      connectTimeout: 10_000,
      resubscribe: false,
      // A zero-touch router waiting for adoption is refused until accepted: it keeps trying.
      reconnectOnConnackError: this.options.credentials !== undefined,
    });
    this.client = client;
    client.on("connect", () => this.onConnect(client));
    client.on("close", () => {
      if (this.client !== client || !this.connected) return;
      this.connected = false;
      this.emit("disconnected");
    });
    client.on("error", (error) => {
      this.lastError = error.message;
      this.emit("problem", error);
    });
    client.on("message", (topic, payload) => this.onMessage(topic, payload));
  }

  /** Ends the current connection now and keeps what it had in flight for the next one. */
  private async disconnect(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.connected = false;
    this.outbox.disconnected();
    if (client) await new Promise<void>((resolve) => client.end(true, {}, () => resolve()));
  }

  private onConnect(client: MqttClient): void {
    if (this.client !== client) return;
    this.connected = true;
    this.counters.connects++;
    client.subscribe([commandTopic(this.ident), tunnelTopic(this.ident)], { qos: 1 }, (error) => {
      if (error) this.emit("problem", error);
    });
    // hello first, then what an earlier connection left unacknowledged, then everything else.
    const first = [
      this.message(helloTopic(this.ident), {
        vendor: this.state.model.vendor,
        model: this.state.model.model,
        firmware: this.state.firmware,
        serial: this.state.serial,
        uptime: Math.max(0, Math.floor((this.now() - this.state.bootedAt) / 1000)),
        agent_version: SIMULATOR_AGENT_VERSION,
        modem_count: this.state.modems.length,
      }),
    ];
    if (this.startedReason !== null) {
      first.push(
        this.message(eventTopic(this.ident), {
          kind: "router_started",
          level: "info",
          message: `Router started (${this.startedReason.replace("_", " ")})`,
          details: { reason: this.startedReason, firmware: this.state.firmware },
        }),
      );
      this.startedReason = null;
    }
    this.outbox.connected(client, first);
    this.publishCollects();
    this.emit("connected");
  }

  /** A message with its envelope: the next `seq` and the current time. */
  private message(topic: string, body: object): Outgoing {
    const envelope = {
      v: PROTOCOL_VERSION,
      seq: this.seq++,
      ts: this.now(),
      ...(this.options.epoch === undefined ? {} : { epoch: this.options.epoch }),
    };
    return { topic, payload: JSON.stringify({ ...envelope, ...body }) };
  }

  private enqueue(topic: string, body: object): void {
    this.outbox.push(this.message(topic, body));
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (topic === tunnelTopic(this.ident)) {
      openTunnelFor(payload, this.ident, this.state, this.now());
      return;
    }
    const parsed = parseCommandMessage(topic, payload);
    if (!parsed.ok || parsed.ident !== this.ident) {
      // Answer a malformed command if its id can be read, so the console does not wait forever.
      const id = readCommandId(payload);
      if (id !== null && !this.commandStatuses.has(id)) {
        const detail = parsed.ok ? "wrong ident" : parsed.detail;
        this.sendStatus({
          id,
          state: "failed",
          code: COMMAND_CODES.unsupported,
          output: `refused: ${detail}`,
        });
      }
      return;
    }
    const command = parsed.command;
    this.emit("command", command);
    const known = this.commandStatuses.get(command.id);
    if (known) {
      this.sendStatus(known); // delivered again (after a reconnect): repeat where it stands
      return;
    }
    this.counters.commands++;
    if (command.run_until !== undefined && command.run_until < this.now()) {
      this.sendStatus({
        id: command.id,
        state: "failed",
        code: COMMAND_CODES.expired,
        output: "run_until had passed",
      });
      return;
    }
    this.sendStatus({ id: command.id, state: "accepted", code: null, output: "" });
    if (this.commandLuck.chance(this.options.commandHangRate ?? 0)) return;
    if (this.commandLuck.chance(this.options.commandFailRate ?? 0)) {
      const failed = {
        id: command.id,
        state: "failed" as const,
        code: COMMAND_CODES.failed,
        output: "simulated failure",
      };
      this.later(this.options.commandDelayMs ?? 500, () => this.sendStatus(failed));
      return;
    }
    this.later(this.options.commandDelayMs ?? 500, () => {
      void runCommand(command, this.state, this.now()).then((outcome) => {
        if (this.stopped) return;
        this.sendStatus(outcome.status);
        if (outcome.firmware !== undefined) this.pendingFirmware = outcome.firmware;
        if (outcome.rebootAfter) this.later(200, () => this.reboot("command"));
      });
    });
  }

  private sendStatus(status: StatusBody): void {
    this.commandStatuses.set(status.id, status);
    if (this.commandStatuses.size > REMEMBERED_COMMANDS) {
      const oldest = this.commandStatuses.keys().next().value;
      if (oldest !== undefined) this.commandStatuses.delete(oldest);
    }
    this.enqueue(commandStatusTopic(this.ident, status.id), status);
  }
}
