import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import type { NetworkBus } from "./bus-link";
import {
  freePort,
  ownNatsServer,
  ownRedisServer,
  startOwnNatsServer,
  startOwnRedisServer,
  waitFor,
} from "./bus-servers.test-support";
import { createBus } from "./create-bus";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function capturingLogger(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return { log: pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) }), lines };
}

describe("createBus", () => {
  it("builds the in-process bus when BUS_URL is unset, and says so", async () => {
    const { log, lines } = capturingLogger();
    const bus = await createBus({ busUrl: undefined }, log);
    cleanups.push(() => bus.close());
    expect(lines.map((line) => line.bus)).toContain("in-process");
    expect("stats" in bus).toBe(false);
  });

  it.each([
    ["nats", startOwnNatsServer],
    ["redis", startOwnRedisServer],
  ] as const)(
    "builds the %s bus for its URL, connected, and logs it with the password masked",
    async (kind, start) => {
      const server = await start("create-bus-secret");
      cleanups.push(() => server.stop());
      const { log, lines } = capturingLogger();
      const bus = (await createBus({ busUrl: server.url }, log)) as NetworkBus;
      cleanups.push(() => bus.close());
      expect(bus.stats().isConnected).toBe(true);
      const announced = lines.find((line) => String(line.msg).startsWith(`bus: ${kind}`));
      expect(announced?.url).toContain("***");
      expect(JSON.stringify(lines)).not.toContain("create-bus-secret");
    },
  );

  it.each([
    ["nats", ownNatsServer],
    ["redis", ownRedisServer],
  ] as const)(
    "starts without a reachable %s server, drops publishes, and connects once it is up",
    async (kind, own) => {
      const server = own({ port: await freePort() });
      cleanups.push(() => server.stop());
      const { log, lines } = capturingLogger();
      const bus = (await createBus({ busUrl: server.url }, log, 300)) as NetworkBus;
      cleanups.push(() => bus.close());
      expect(bus.stats().isConnected).toBe(false);
      const warning = lines.find((line) => String(line.msg).startsWith("bus not connected yet"));
      expect(warning?.reason).toBeTruthy();
      await bus.publish("topic", "nobody hears this");
      expect(bus.stats().dropped).toBe(1);

      const received: unknown[] = [];
      bus.subscribe("topic", (message) => received.push(message));
      await server.start();
      await waitFor(() => bus.stats().isConnected, 10_000, `the ${kind} bus to connect`);
      await waitFor(
        () => {
          void bus.publish("topic", "heard");
          return received.length > 0;
        },
        5000,
        "the subscription made before the server was up",
      );
      expect(received[0]).toBe("heard");
    },
  );

  it.each([
    ["nats", startOwnNatsServer],
    ["redis", startOwnRedisServer],
  ] as const)("keeps two installations on one %s server apart by BUS_PREFIX", async (_kind, start) => {
    const server = await start("prefix-secret");
    cleanups.push(() => server.stop());
    const { log } = capturingLogger();
    const open = async (busPrefix: string) => {
      const bus = (await createBus({ busUrl: server.url, busPrefix }, log)) as NetworkBus;
      cleanups.push(() => bus.close());
      return bus;
    };
    const [prod, staging, prodTwo] = [await open("prod"), await open("staging"), await open("prod")];
    const heard = { staging: [] as unknown[], prodTwo: [] as unknown[] };
    staging.subscribe("devices", (message) => heard.staging.push(message));
    prodTwo.subscribe("devices", (message) => heard.prodTwo.push(message));
    await waitFor(
      () => {
        void prod.publish("devices", "update");
        return heard.prodTwo.length > 0;
      },
      5000,
      "the other node of the same installation",
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard.staging).toEqual([]);
  });
});
