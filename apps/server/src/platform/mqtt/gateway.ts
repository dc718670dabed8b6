import { hostname } from "node:os";
import { GatewayCounters, type GatewayCounts } from "./counters";
import {
  type AccessCheck,
  type ConnectCheck,
  type EmbeddedBrokerOptions,
  MqttPortInUseError,
  startEmbeddedBroker,
} from "./embedded-broker";
import { startExternalSubscriber } from "./external-subscriber";
import type { ReportSink } from "./reports";

/** What the gateway is built from. */
export interface GatewayOptions {
  /** Unset: the embedded broker listens on `mqttPort`. Set: subscribe to this broker instead. */
  mqttUrl: string | undefined;
  mqttPort: number;
  /** When mqttPort is taken, warn and listen on a free port instead of failing. */
  isMqttPortFlexible?: boolean;
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
  };
  const broker = await startEmbeddedBroker(brokerOptions).catch(async (error: unknown) => {
    // A first `npm start` must work beside another broker on 1883; an explicit MQTT_PORT must not move.
    if (!(error instanceof MqttPortInUseError) || !options.isMqttPortFlexible) throw error;
    const moved = await startEmbeddedBroker({ ...brokerOptions, port: 0 });
    options.log.warn(
      { wanted: options.mqttPort, port: moved.port },
      `MQTT port ${options.mqttPort} is taken (another broker?); the embedded broker listens on ${moved.port} instead. Set MQTT_PORT to choose.`,
    );
    return moved;
  });
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
