import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("keeps the port it moved to across restarts, as the routers were told it (issue 27)", async () => {
    const taken = await occupyPort();
    opened.push(taken);
    const port = (taken.address() as { port: number }).port;
    const dir = await mkdtemp(join(tmpdir(), "cf-port-"));
    opened.push({ close: () => rm(dir, { recursive: true, force: true }) });
    const portFile = join(dir, "mqtt-port");
    const start = () =>
      startGateway({
        mqttUrl: undefined,
        mqttPort: port,
        host: "127.0.0.1",
        isMqttPortFlexible: true,
        portFile,
        log,
        ...refuseAll,
      } as Parameters<typeof startGateway>[0]);
    const first = await start();
    const moved = first.port;
    expect(moved).not.toBe(port);
    expect((await readFile(portFile, "utf8")).trim()).toBe(String(moved));
    await first.close();
    for (let restart = 0; restart < 3; restart++) {
      const again = await start();
      expect(again.port).toBe(moved);
      await again.close();
    }

    // Another program took the remembered port meanwhile: the start refuses rather than move again.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(moved, "0.0.0.0", resolve));
    opened.push(squatter);
    const refused = start();
    await expect(refused).rejects.toBeInstanceOf(MqttPortInUseError);
    await expect(refused).rejects.toThrow(/remembered in .*mqtt-port.*MQTT_PORT/);
  });

  it("remembers the default port too when it was free, so a later start does not move off it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cf-port-"));
    opened.push({ close: () => rm(dir, { recursive: true, force: true }) });
    const free = await occupyPort();
    const port = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    const portFile = join(dir, "mqtt-port");
    const options = {
      mqttUrl: undefined,
      mqttPort: port,
      host: "127.0.0.1",
      isMqttPortFlexible: true,
      portFile,
      log,
      ...refuseAll,
    } as Parameters<typeof startGateway>[0];
    const first = await startGateway(options);
    expect(first.port).toBe(port);
    await first.close();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, "0.0.0.0", resolve));
    opened.push(squatter);
    await expect(startGateway(options)).rejects.toBeInstanceOf(MqttPortInUseError);
  });
});
