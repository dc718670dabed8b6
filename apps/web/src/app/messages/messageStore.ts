import { enqueueInfoMessage, type InfoMessage, type InfoMessageLevel } from "@cellfleet/contract";
import { useSyncExternalStore } from "react";

/** A message in the web's queue: the contract's InfoMessage plus its id and navigation count. */
export interface QueuedMessage extends InfoMessage {
  id: number;
  /** How many navigations the message has lived through. */
  navigations: number;
}

type Listener = () => void;

let queue: readonly QueuedMessage[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function set(next: readonly QueuedMessage[]): void {
  queue = next;
  for (const listener of listeners) listener();
}

/**
 * Queues an info message by the contract's rules (spec section 4): critical replaces all, warning
 * replaces a queue with nothing critical in it, info and success are appended.
 */
export function pushInfoMessage(message: { level: InfoMessageLevel; text: string; link?: string }): void {
  set(enqueueInfoMessage(queue, { ...message, id: nextId++, navigations: 0 }));
}

/** The shown message's time is over, or the person closed it. */
export function dismissInfoMessage(id: number): void {
  set(queue.filter((message) => message.id !== id));
}

/**
 * The person arrived at a new page. A message lives through one navigation (spec section 2):
 * messages that had already lived through one are dropped.
 */
export function noteNavigation(): void {
  if (queue.length === 0) return;
  set(
    queue
      .filter((message) => message.navigations < 1)
      .map((message) => ({ ...message, navigations: message.navigations + 1 })),
  );
}

export function clearInfoMessages(): void {
  set([]);
}

export const messageStore = {
  get: (): readonly QueuedMessage[] => queue,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The message on screen now (the head of the queue), or null. */
export function useCurrentInfoMessage(): QueuedMessage | null {
  const current = useSyncExternalStore(messageStore.subscribe, messageStore.get, messageStore.get);
  return current[0] ?? null;
}
