import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MqttPortInUseError } from "./embedded-broker";
import { type Gateway, startGateway } from "./gateway";

const log = { info: () => {}, warn: () => {} };
const refuseAll = {
  authenticate: async () => ({ ok: false as const, reason: "unknown_device" as const }),
  isAllowed: () => false,
  sink: { submit: async () => {}, waitForRoom: async () => {} },
};

async function occupyPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

describe("the embedded broker's port", () => {
  const opened: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0)) await item.close();
  });

  it("moves to a free port when the default port is taken", async () => {
    const taken = await occupyPort();
    opened.push(taken);
    const port = (taken.address() as { port: number }).port;
    const gateway: Gateway = await startGateway({
      mqttUrl: undefined,
      mqttPort: port,
      host: "127.0.0.1",
      isMqttPortFlexible: true,
      log,
      ...refuseAll,
    } as Parameters<typeof startGateway>[0]);
    opened.push(gateway);
    expect(gateway.port).not.toBe(port);
    expect(gateway.port).toBeGreaterThan(0);
  });

  it("refuses to start when an explicitly chosen port is taken", async () => {
    const taken = await occupyPort();
    opened.push(taken);
    const port = (taken.address() as { port: number }).port;
    await expect(
      startGateway({
        mqttUrl: undefined,
        mqttPort: port,
        host: "127.0.0.1",
        log,
        ...refuseAll,
      } as Parameters<typeof startGateway>[0]),
    ).rejects.toBeInstanceOf(MqttPortInUseError);
  });
});
