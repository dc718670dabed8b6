import type { Logger } from "pino";
import type { Config } from "../config";
import type { Bus } from "./bus";
import { maskBusUrl } from "./bus-link";
import { createInProcessBus } from "./in-process-bus";
import { createNatsBus } from "./nats-bus";
import { createRedisBus } from "./redis-bus";

/** How long the start waits for a networked bus before going on without it (it keeps retrying). */
const FIRST_CONNECT_WAIT_MS = 5000;

/**
 * The bus BUS_URL asks for: NATS for `nats:`, Redis for `redis:`/`rediss:`, the in-process bus when
 * unset. A networked bus is given a few seconds to connect, so a node normally starts subscribed;
 * an unreachable one does not stop the start, since the bus reconnects on its own.
 */
export async function createBus(
  config: Pick<Config, "busUrl"> & Partial<Pick<Config, "busPrefix">>,
  log: Logger,
  firstConnectWaitMs = FIRST_CONNECT_WAIT_MS,
): Promise<Bus> {
  const url = config.busUrl;
  if (url === undefined) {
    log.info({ bus: "in-process" }, "bus: in-process (a single node)");
    return createInProcessBus(log);
  }
  const isNats = new URL(url).protocol === "nats:";
  const name = config.busPrefix ?? "cellfleet";
  const bus = isNats
    ? createNatsBus({ url, log, prefix: `${name}.` })
    : createRedisBus({ url, log, prefix: `${name}:` });
  const kind = isNats ? "nats" : "redis";
  log.info(
    { bus: kind, url: maskBusUrl(url), prefix: name },
    `bus: ${kind}, shared with the other server nodes`,
  );
  if (!(await bus.waitUntilConnected(firstConnectWaitMs)))
    log.warn(
      { bus: kind, url: maskBusUrl(url), reason: bus.stats().lastError },
      "bus not connected yet; starting anyway, it keeps retrying",
    );
  return bus;
}
