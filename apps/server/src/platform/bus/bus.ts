/** Called with each message published on a subscribed topic. */
export type BusHandler = (message: unknown) => void;

/**
 * Publish/subscribe between the parts of the server and between server nodes: in-process, or NATS
 * or Redis chosen by BUS_URL (`createBus`, ADR 008). Messages are plain JSON-serialisable values;
 * delivery is at-most-once and asynchronous from the publisher's point of view, and a publish never
 * fails because the bus server is away (it is dropped and counted).
 */
export interface Bus {
  /** Sends a message to every current subscriber of the topic, on every node. */
  publish(topic: string, message: unknown): Promise<void>;
  /** Starts delivering the topic's messages to the handler; returns the unsubscribe function. */
  subscribe(topic: string, handler: BusHandler): () => void;
  /** Drops every subscription and releases connections. */
  close(): Promise<void>;
}

/** Topic of everything that concerns one domain's users (devices, events, notifications). */
export function domainTopic(domainId: string): string {
  return `domain:${domainId}`;
}

/** Topic of what concerns the superusers, who belong to no domain (their notifications). */
export const SUPERUSERS_TOPIC = "superusers";

/** Topic of one session: its sockets close when a session-ended message arrives. */
export function sessionTopic(sessionId: string): string {
  return `session:${sessionId}`;
}
