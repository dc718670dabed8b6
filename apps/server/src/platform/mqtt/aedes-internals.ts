import type { Socket } from "node:net";
import { Duplex } from "node:stream";
import type { Aedes, Client } from "aedes";

/** Thrown at start when Aedes no longer has the internals the embedded broker patches. */
export class AedesInternalsError extends Error {
  override name = "AedesInternalsError";
}

/**
 * What of a client's mqtt-packet parser the packet-size guard (embedded-broker.ts) patches and reads,
 * missing from this client: its `_parseLength` step, named in the parser's `_states` so the patched
 * method is the one called, and the `packet` whose length it reads.
 */
export function missingParserInternals(client: Client): string[] {
  const parser = (client as unknown as { _parser?: Record<string, unknown> })._parser;
  if (!parser) return ["client._parser"];
  const missing: string[] = [];
  if (typeof parser._parseLength !== "function") missing.push("parser._parseLength()");
  if (!Array.isArray(parser._states) || !parser._states.includes("_parseLength"))
    missing.push('parser._states containing "_parseLength"');
  if (typeof parser.packet !== "object" || parser.packet === null) missing.push("parser.packet");
  return missing;
}

/**
 * Checks on a probe connection that this Aedes has what the embedded broker patches; aedes and mqtt
 * are pinned to exact versions for it. Without this an Aedes upgrade would switch the packet-size
 * guard off silently and the broker would buffer packets of any size.
 */
export function assertAedesInternals(broker: Aedes): void {
  const probe = new Duplex({
    read() {},
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
  try {
    const missing = missingParserInternals(broker.handle(probe as unknown as Socket));
    if (missing.length > 0) {
      throw new AedesInternalsError(
        `This aedes version lacks what the embedded MQTT broker's packet-size guard patches (${missing.join(", ")}). ` +
          "Install the aedes version pinned in apps/server/package.json, or update platform/mqtt/embedded-broker.ts for this one.",
      );
    }
  } finally {
    probe.destroy();
  }
}
