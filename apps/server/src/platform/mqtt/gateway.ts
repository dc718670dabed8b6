import { hostname } from "node:os";
import { GatewayCounters, type GatewayCounts } from "./counters";
import {
  type AccessCheck,
  type ConnectCheck,
  type EmbeddedBrokerOptions,
  MqttPortInUseError,
  type PresenceListener,
  startEmbeddedBroker,
} from "./embedded-broker";
import { startExternalSubscriber } from "./external-subscriber";
import { readRememberedPort, rememberPort } from "./remembered-port";
import type { ReportSink } from "./reports";

/** What the gateway is built from. */
export interface GatewayOptions {
  /** Unset: the embedded broker listens on `mqttPort`. Set: subscribe to this broker instead. */
  mqttUrl: string | undefined;
  mqttPort: number;
  /** When mqttPort is taken, warn and listen on a free port instead of failing. */
  isMqttPortFlexible?: boolean;
  /**
   * With a flexible port: where the port routers are told is remembered (DATA_DIR/mqtt-port), so a
   * later start listens on it again instead of moving, or refuses to start when it is taken.
   */
  portFile?: string;
  host?: string;
  /** External mode: the client id; defaults to `cellfleet-server-<hostname>`. */
  clientId?: string;
  /** External mode: use the shared subscription group (several server nodes). */
  sharedSubscription?: boolean;
  shareGroup?: string;
  authenticate: ConnectCheck;
  isAllowed: AccessCheck;
  sink: ReportSink;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  counters?: GatewayCounters;
  /** Embedded mode: told when a router's main connection opens or closes (ADR 032). */
  onPresence?: PresenceListener;
  /** Embedded mode: also serve MQTT over TLS (MQTT_TLS_PORT, MQTT_TLS_CERT, MQTT_TLS_KEY). */
  tls?: EmbeddedBrokerOptions["tls"];
}

/** A running gateway, embedded or external. */
export interface Gateway {
  mode: "embedded" | "external";
  /** The embedded broker's port (0 in external mode). */
  port: number;
  /** Where devices (and the demo fleet) connect; log it through `redactUrl` (platform/redact-url.ts). */
  url: string;
  /** The embedded broker's TLS port, when it serves TLS. */
  tlsPort?: number;
  counters: GatewayCounters;
  stats(): GatewayCounts & { mode: "embedded" | "external" };
  /**
   * Publishes a message to a device with QoS 1 (commands). Resolves when the broker took it, which
   * says nothing of the device: only its `accepted` status does (docs/device-protocol.md 6.1).
   */
  publish(topic: string, payload: string): Promise<void>;
  /** Whether a device is connected now: known to the embedded broker, unknown (null) behind an external one. */
  isConnected(ident: string): boolean | null;
  close(): Promise<void>;
}

/**
 * Starts the embedded broker where routers were told to connect. A first `npm start` must work beside
 * another broker on 1883, so a flexible (default) port that is taken moves to a free one; that port is
 * remembered (`portFile`) and every later start listens on it again or refuses to start, because the
 * routers were told it. An explicit MQTT_PORT never moves.
 */
async function startEmbeddedOnKeptPort(brokerOptions: EmbeddedBrokerOptions, options: GatewayOptions) {
  const file = options.isMqttPortFlexible ? options.portFile : undefined;
  const remembered = file ? await readRememberedPort(file) : null;
  if (file && remembered !== null) {
    const broker = await startEmbeddedBroker({ ...brokerOptions, port: remembered }).catch(
      (error: unknown) => {
        if (!(error instanceof MqttPortInUseError)) throw error;
        throw new MqttPortInUseError(
          `MQTT port ${remembered} is already in use. Routers were told this port on an earlier start (remembered in ${file}), so the embedded broker does not move: free the port, or set MQTT_PORT (and tell the routers the new port).`,
        );
      },
    );
    if (remembered !== options.mqttPort)
      options.log.info(
        { port: remembered, file },
        `the embedded broker listens on ${remembered}, the port routers were told`,
      );
    return broker;
  }
  const broker = await startEmbeddedBroker(brokerOptions).catch(async (error: unknown) => {
    if (!(error instanceof MqttPortInUseError) || !options.isMqttPortFlexible) throw error;
    const moved = await startEmbeddedBroker({ ...brokerOptions, port: 0 });
    options.log.warn(
      { wanted: options.mqttPort, port: moved.port, file },
      `MQTT port ${options.mqttPort} is taken (another broker?); the embedded broker listens on ${moved.port} instead${file ? `, remembered in ${file} for every later start` : ""}. Set MQTT_PORT to choose.`,
    );
    return moved;
  });
  if (file) await rememberPort(file, broker.port);
  return broker;
}

/** Starts the device gateway: the embedded Aedes broker, or a subscriber of MQTT_URL. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const counters = options.counters ?? new GatewayCounters(options.log);
  if (options.mqttUrl) {
    const subscriber = await startExternalSubscriber({
      url: options.mqttUrl,
      clientId: options.clientId ?? `cellfleet-server-${hostname()}`,
      sink: options.sink,
      counters,
      log: options.log,
      shared: options.sharedSubscription,
      shareGroup: options.shareGroup,
    });
    return {
      mode: "external",
      port: 0,
      url: options.mqttUrl,
      counters,
      stats: () => ({ ...counters.snapshot(), mode: "external" }),
      publish: async (topic, payload) => {
        await subscriber.client.publishAsync(topic, payload, { qos: 1 });
      },
      isConnected: () => null,
      close: () => subscriber.close(),
    };
  }
  const brokerOptions: EmbeddedBrokerOptions = {
    port: options.mqttPort,
    host: options.host,
    authenticate: options.authenticate,
    isAllowed: options.isAllowed,
    sink: options.sink,
    counters,
    tls: options.tls,
    onPresence: options.onPresence,
  };
  const broker = await startEmbeddedOnKeptPort(brokerOptions, options);
  return {
    mode: "embedded",
    port: broker.port,
    url: `mqtt://127.0.0.1:${broker.port}`,
    tlsPort: broker.tlsPort,
    counters,
    stats: () => ({
      ...counters.snapshot(),
      connections: broker.broker.connectedClients,
      mode: "embedded",
    }),
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) => {
        broker.broker.publish(
          { cmd: "publish", topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    // Aedes keeps its connected clients by id; its types do not declare the map.
    isConnected: (ident) =>
      Object.hasOwn((broker.broker as unknown as { clients: Record<string, unknown> }).clients, ident),
    close: () => broker.close(),
  };
}
