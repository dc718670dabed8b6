import { createServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { identOfClientId, MAX_PAYLOAD_BYTES } from "@cellfleet/contract";
import { Aedes, type AuthenticateError, type Client } from "aedes";
import { assertAedesInternals } from "./aedes-internals";
import type { GatewayCounters, RefusalReason } from "./counters";
import { createNotifier } from "./notices";
import { refuseUnsupportedProtocol } from "./protocol-version";
import { acceptPublished, type ReportSink } from "./reports";

/** Checks a device's CONNECT (see modules/ingest/device-auth.ts); `peer` is where it came from. */
export type ConnectCheck = (
  clientId: string,
  username: string | undefined,
  password: string | undefined,
  peer?: { address: string | undefined },
) => Promise<{ ok: true } | { ok: false; reason: RefusalReason }>;

/** The peer's IP as people read it: an IPv4 peer on a dual-stack socket without its `::ffff:` prefix. */
export function peerAddress(socket: { remoteAddress?: string } | undefined): string | undefined {
  const address = socket?.remoteAddress;
  return address?.startsWith("::ffff:") ? address.slice(7) : address;
}

/** Checks a device's PUBLISH or SUBSCRIBE topic. */
export type AccessCheck = (ident: string, access: "publish" | "subscribe", topic: string) => boolean;

/**
 * Told when a router's main connection opens or closes (keep-alive lost, socket dropped, clean
 * DISCONNECT, taken over): the connection whose client id is its ident and its user name too
 * (ADR 032). Other connections (zero-touch joins, a second client id for publishing) are not told.
 */
export type PresenceListener = (ident: string, isConnected: boolean) => void;

/** What the embedded broker is built from. */
export interface EmbeddedBrokerOptions {
  port: number;
  host?: string;
  authenticate: ConnectCheck;
  isAllowed: AccessCheck;
  sink: ReportSink;
  counters: GatewayCounters;
  onPresence?: PresenceListener;
  /** MQTT over TLS too (MQTT_TLS_PORT, MQTT_TLS_CERT, MQTT_TLS_KEY): the PEM certificate chain and key. */
  tls?: { port: number; cert: Buffer | string; key: Buffer | string };
}

/** A listening embedded broker. */
export interface EmbeddedBroker {
  port: number;
  /** The TLS port, when TLS was asked for. */
  tlsPort?: number;
  broker: Aedes;
  close(): Promise<void>;
}

/**
 * Largest MQTT packet read at all: 4× the payload limit. A payload between MAX_PAYLOAD_BYTES and this
 * is read, refused as too_large and acknowledged (docs/device-protocol.md 5.2); a bigger packet is
 * not buffered: its connection is closed as soon as the packet's length is known.
 */
export const MAX_PACKET_BYTES = 4 * MAX_PAYLOAD_BYTES;

interface PacketParser {
  packet: { length: number; cmd?: string };
  _parseLength(): boolean;
}

/** Closes a connection whose next packet announces more than MAX_PACKET_BYTES, before reading it. */
function guardPacketSize(client: Client, socket: Socket, counters: GatewayCounters): void {
  // Aedes has no packet-size option; its mqtt-packet parser learns each packet's length first. What
  // this patches is checked at start (aedes-internals.ts).
  const parser = (client as unknown as { _parser?: PacketParser })._parser;
  if (!parser) return;
  const parseLength = parser._parseLength.bind(parser);
  parser._parseLength = () => {
    const known = parseLength();
    if (known && parser.packet.length > MAX_PACKET_BYTES) {
      counters.refuse("too_large", { ident: client.id, detail: `${parser.packet.length} bytes, not read` });
      socket.destroy();
      return false;
    }
    return known;
  };
}

/** Thrown when MQTT_PORT is taken, with a message that says what to change. */
export class MqttPortInUseError extends Error {
  override name = "MqttPortInUseError";
}

/**
 * The in-process MQTT broker (Aedes). Devices authenticate with their token; each may publish and
 * subscribe only under its own ident. A PUBLISH is authorised only once its report is committed:
 * Aedes sends the PUBACK after the authorizePublish callback, so the acknowledgement promises the
 * report is stored (docs/device-protocol.md 5.2). Aedes reads no further from a client while its
 * packets are pending, which is the backpressure when ingest is busy.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { counters, sink } = options;
  let publishNotice: (topic: string, payload: Buffer) => void = () => {};
  const notifier = createNotifier((topic, payload) => publishNotice(topic, payload));
  // Main connections: accepted with user name = client id (a router's ident), ADR 032.
  const mainClients = new WeakSet<Client>();
  const broker = await Aedes.createBroker({
    preConnect: refuseUnsupportedProtocol(counters),
    authenticate: (client, username, password, done) => {
      const ident = client.id;
      options
        .authenticate(ident, username ?? undefined, password ? password.toString("utf8") : undefined, {
          address: peerAddress(client.conn as { remoteAddress?: string }),
        })
        .then(
          (result) => {
            if (result.ok) {
              counters.counts.connectionsAccepted++;
              // A router's publishing connection (`{ident}-p`, ADR 030) says nothing of its presence.
              if (username === ident && identOfClientId(ident) === ident) mainClients.add(client);
              return done(null, true);
            }
            counters.refuse(result.reason, { ident: ident.slice(0, 100) });
            const error = new Error("bad username or password") as AuthenticateError;
            error.returnCode = 4 as AuthenticateError["returnCode"];
            done(error, false);
          },
          (error: unknown) => {
            // A database hiccup: refuse with "server unavailable" so the device retries later.
            const refusal = new Error(`authentication failed: ${String(error)}`) as AuthenticateError;
            refusal.returnCode = 3 as AuthenticateError["returnCode"];
            done(refusal, false);
          },
        );
    },
    authorizePublish: (client, packet, callback) => {
      // The server's own publishes (commands) have no client.
      if (client === null) return callback(null);
      // A device's publishing connection (`{ident}-p`) publishes as the device itself.
      const ident = identOfClientId(client.id);
      // isAllowed lets a device's own unsupported topics through (acceptPublished explains them).
      if (!options.isAllowed(ident, "publish", packet.topic)) {
        counters.refuse("acl_publish", { ident, topic: packet.topic });
        return callback(new Error("topic not allowed"));
      }
      acceptPublished(sink, counters, packet.topic, packet.payload as Buffer, ident, notifier).then(
        () => callback(null),
        (error: unknown) => {
          counters.refuse("ingest_failed", { ident, detail: String(error) });
          // Closing the connection without a PUBACK: the device resends after reconnecting.
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
    authorizeSubscribe: (client, subscription, callback) => {
      if (client && options.isAllowed(identOfClientId(client.id), "subscribe", subscription.topic))
        return callback(null, subscription);
      counters.refuse("acl_subscribe", { ident: client?.id, topic: subscription.topic });
      callback(new Error("subscription not allowed"), null);
    },
    // Devices' reports are for the server only: never forward one device's message to another client.
    // Notices (notices.ts) and tunnel_open (ADR 038) are the server's too; no device may publish on them.
    authorizeForward: (_client, packet) => (/\/(command|notice|tunnel)$/.test(packet.topic) ? packet : null),
  });
  try {
    assertAedesInternals(broker);
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  if (options.onPresence) {
    const onPresence = options.onPresence;
    broker.on("client", (client) => {
      if (mainClients.has(client)) onPresence(client.id, true);
    });
    // Aedes closes a taken-over connection before it registers the new one, so the old one's
    // disconnect comes first; a newer connection under the ident already registered means this
    // one's close says nothing about the router.
    broker.on("clientDisconnect", (client) => {
      if (!mainClients.has(client)) return;
      const current = (broker as unknown as { clients: Record<string, Client | undefined> }).clients[
        client.id
      ];
      if (current === undefined || current === client) onPresence(client.id, false);
    });
  }
  publishNotice = (topic, payload) =>
    broker.publish({ cmd: "publish", topic, payload, qos: 0, retain: false, dup: false }, () => {});
  const server: Server = createServer((socket) => guardPacketSize(broker.handle(socket), socket, counters));
  const tlsServer = options.tls
    ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, (socket) =>
        guardPacketSize(broker.handle(socket), socket as unknown as Socket, counters),
      )
    : undefined;
  const servers = tlsServer ? [server, tlsServer] : [server];
  try {
    await listen(server, options.port, options.host);
    if (tlsServer && options.tls) await listen(tlsServer, options.tls.port, options.host);
  } catch (error) {
    await Promise.all(servers.filter((s) => s.listening).map((s) => new Promise((r) => s.close(r))));
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new MqttPortInUseError(
        `MQTT_PORT ${options.port} is already in use. Set MQTT_PORT to a free port for the embedded broker, or MQTT_URL to use an external broker.`,
      );
    }
    throw error;
  }
  return {
    port: boundPort(server, options.port),
    tlsPort: tlsServer ? boundPort(tlsServer, options.tls?.port ?? 0) : undefined,
    broker,
    async close() {
      await Promise.all([
        new Promise<void>((resolve) => broker.close(() => resolve())),
        ...servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      ]);
    },
  };
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function boundPort(server: Server, fallback: number): number {
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : fallback;
}
