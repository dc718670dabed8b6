import type { Socket } from "node:net";
import { Duplex } from "node:stream";
import { Aedes } from "aedes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AedesInternalsError } from "./aedes-internals";
import { GatewayCounters } from "./counters";
import { startEmbeddedBroker } from "./embedded-broker";

const quiet = { info: () => {}, warn: () => {} };
const options = () => ({
  port: 0,
  host: "127.0.0.1",
  authenticate: async () => ({ ok: false as const, reason: "unknown_device" as const }),
  isAllowed: () => false,
  sink: { submit: async () => {}, waitForRoom: async () => {} },
  counters: new GatewayCounters(quiet),
});

/** The prototype of the mqtt-packet parser this Aedes gives each client. */
let parserPrototype: Record<string, unknown>;
beforeAll(async () => {
  const broker = await Aedes.createBroker();
  const probe = new Duplex({ read() {}, write: (_chunk, _encoding, done) => done() });
  const client = broker.handle(probe as unknown as Socket) as unknown as { _parser: object };
  parserPrototype = Object.getPrototypeOf(client._parser);
  probe.destroy();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
});

describe("the Aedes internals the embedded broker patches", () => {
  it("are there in the pinned aedes, so the broker starts", async () => {
    const broker = await startEmbeddedBroker(options());
    expect(broker.port).toBeGreaterThan(0);
    await broker.close();
  });

  describe("when the parser has no _parseLength step", () => {
    let parseLength: unknown;
    beforeAll(() => {
      parseLength = parserPrototype._parseLength;
      delete parserPrototype._parseLength;
    });
    afterAll(() => {
      parserPrototype._parseLength = parseLength;
    });

    it("refuse to start the broker, naming what is missing, rather than switch the size guard off", async () => {
      const starting = startEmbeddedBroker(options());
      await expect(starting).rejects.toBeInstanceOf(AedesInternalsError);
      await expect(starting).rejects.toThrow(
        /parser\._parseLength\(\).*pinned in apps\/server\/package\.json/,
      );
    });
  });
});
