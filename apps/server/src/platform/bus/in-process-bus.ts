import { EventEmitter } from "node:events";
import type { Logger } from "pino";
import type { Bus, BusHandler } from "./bus";

/** The single-node bus: an EventEmitter. Messages are cloned, as a networked bus would serialise them. */
export function createInProcessBus(log?: Logger): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let isClosed = false;

  return {
    async publish(topic, message) {
      if (isClosed) return;
      const copy = structuredClone(message);
      // Deliver on a later tick so publishers never run subscriber code inline, like a real broker.
      await new Promise<void>((resolve) => {
        setImmediate(() => {
          emitter.emit(topic, copy);
          resolve();
        });
      });
    },
    subscribe(topic, handler) {
      const safeHandler: BusHandler = (message) => {
        try {
          handler(message);
        } catch (error) {
          log?.error({ err: error, topic }, "bus subscriber failed");
        }
      };
      emitter.on(topic, safeHandler);
      return () => {
        emitter.off(topic, safeHandler);
      };
    },
    async close() {
      isClosed = true;
      emitter.removeAllListeners();
    },
  };
}
