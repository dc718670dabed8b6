/** What the device link needs of a running gateway. */
export interface DeviceLinkGateway {
  publish(topic: string, payload: string): Promise<void>;
  isConnected(ident: string): boolean | null;
}

/**
 * The way down to routers for features (commands): built with the app, attached to the gateway once
 * the device side runs (main.ts; tests attach their own). Until then, sending fails, so a job that
 * sends is retried rather than lost.
 */
export interface DeviceLink {
  attach(gateway: DeviceLinkGateway): void;
  detach(): void;
  isAttached(): boolean;
  /** Publishes with QoS 1; throws when no gateway is attached. */
  publish(topic: string, payload: string): Promise<void>;
  /** Whether a router is connected now; null when the gateway cannot tell (external broker). */
  isConnected(ident: string): boolean | null;
}

/** A device link with no gateway yet. */
export function createDeviceLink(): DeviceLink {
  let gateway: DeviceLinkGateway | null = null;
  return {
    attach(next) {
      gateway = next;
    },
    detach() {
      gateway = null;
    },
    isAttached: () => gateway !== null,
    async publish(topic, payload) {
      if (gateway === null) throw new Error("the device gateway is not running on this node");
      await gateway.publish(topic, payload);
    },
    isConnected: (ident) => (gateway === null ? false : gateway.isConnected(ident)),
  };
}
