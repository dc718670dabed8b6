import type { Client, Connection } from "aedes";
import type { GatewayCounters } from "./counters";

/** What an MQTT 5 client is told in the CONNACK's reason string. */
export const MQTT5_REFUSAL =
  "Cellfleet's embedded broker speaks MQTT 3.1.1 only: connect with protocol level 4 (docs/device-protocol.md 2)";

/**
 * An MQTT 5 CONNACK: reason code 0x84 (Unsupported Protocol Version) with a reason string. Aedes
 * answers a v5 CONNECT with a 3.1.1 CONNACK that a v5 client cannot read as a reason; this is the
 * answer MQTT 5 itself defines (section 3.2.2.2), so the client reports why.
 */
export function mqtt5Refusal(reason = MQTT5_REFUSAL): Buffer {
  const text = Buffer.from(reason, "utf8");
  const properties = Buffer.concat([Buffer.from([0x1f, text.length >> 8, text.length & 0xff]), text]);
  const body = Buffer.concat([Buffer.from([0x00, 0x84]), varint(properties.length), properties]);
  return Buffer.concat([Buffer.from([0x20]), varint(body.length), body]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

/**
 * Aedes' preConnect hook: an MQTT 5 CONNECT is answered with {@link mqtt5Refusal}, counted and the
 * connection closed; every other CONNECT goes on to authentication.
 */
export function refuseUnsupportedProtocol(counters: GatewayCounters) {
  return (
    client: Client,
    packet: { protocolVersion?: number; clientId?: string },
    callback: (error: Error | null, ok: boolean) => void,
  ): void => {
    if (packet.protocolVersion !== 5) {
      callback(null, true);
      return;
    }
    counters.refuse("unsupported_protocol", {
      ident: packet.clientId?.slice(0, 100),
      detail: "MQTT 5 CONNECT",
    });
    const conn = client.conn as Connection & { write(data: Buffer, cb: () => void): boolean };
    conn.write(mqtt5Refusal(), () => callback(new Error("MQTT 5 is not supported"), false));
  };
}
