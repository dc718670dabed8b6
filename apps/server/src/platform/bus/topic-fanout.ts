import type { Logger } from "pino";
import type { BusHandler } from "./bus";

/**
 * The handlers of one node, grouped by topic, for a networked bus: the network holds one
 * subscription per topic however many sockets listen, a message is parsed once and every handler
 * gets the same object (as in-process, so per-message caches keyed by the object keep working),
 * and a handler that throws is logged without touching the others.
 */
export class TopicFanout {
  private readonly handlersByTopic = new Map<string, Set<BusHandler>>();

  constructor(private readonly log?: Pick<Logger, "error" | "warn">) {}

  /** Adds the handler; true when it is the topic's first, so the network subscription must be made. */
  add(topic: string, handler: BusHandler): boolean {
    let handlers = this.handlersByTopic.get(topic);
    const isFirst = handlers === undefined;
    if (!handlers) {
      handlers = new Set();
      this.handlersByTopic.set(topic, handlers);
    }
    handlers.add(handler);
    return isFirst;
  }

  /** Removes the handler; true when it was the topic's last, so the network subscription can go. */
  remove(topic: string, handler: BusHandler): boolean {
    const handlers = this.handlersByTopic.get(topic);
    if (!handlers?.delete(handler)) return false;
    if (handlers.size > 0) return false;
    this.handlersByTopic.delete(topic);
    return true;
  }

  /** Every topic with at least one handler: what a fresh connection must subscribe to. */
  topics(): string[] {
    return [...this.handlersByTopic.keys()];
  }

  /** Hands the JSON text received on a topic to each of its handlers. */
  deliver(topic: string, text: string): void {
    const handlers = this.handlersByTopic.get(topic);
    if (!handlers || handlers.size === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.log?.warn({ err: error, topic }, "bus message is not JSON; dropped");
      return;
    }
    // A copy, so a handler that unsubscribes (or subscribes) while being called does not upset the loop.
    for (const handler of [...handlers]) {
      try {
        handler(message);
      } catch (error) {
        this.log?.error({ err: error, topic }, "bus subscriber failed");
      }
    }
  }

  clear(): void {
    this.handlersByTopic.clear();
  }
}

/** A message as the network carries it: JSON text (`undefined` travels as `null`). */
export function encodeBusMessage(message: unknown): string {
  return JSON.stringify(message) ?? "null";
}
