import type { CommandType } from "@cellfleet/contract";

// The conformance suite's view of a router (issue 25): the same scenarios run against every agent
// that speaks docs/device-protocol.md — the simulator, the OpenWrt agent, a vendor's own — each
// through a driver that starts and stops it. Scenarios live beside this file; each agent's test file
// calls them with its driver.

/** Where a device under test connects: the console's broker and its HTTPS/HTTP address for files. */
export interface ConformanceConsole {
  /** `mqtt://127.0.0.1:port` or `mqtts://…` for the gateway the router joins. */
  mqttUrl: string;
  /** The console's address routers download from and upload to (signed file URLs point here). */
  publicUrl: string;
  /** PEM file of the CA that signed the broker's certificate, for `mqtts://`. */
  caFile?: string;
}

/** How the device proves who it is: a registered ident and its 64-hex key, or a zero-touch join. */
export type ConformanceIdentity =
  | { kind: "key"; ident: string; key: string }
  | { kind: "zero-touch"; secret: string; keyId: string; model: string; serial: string };

/** One running agent. */
export interface DeviceUnderTest {
  /** The ident it connected with (a zero-touch join's is derived from model and serial). */
  readonly ident: string;
  /** Kills its processes, as a power cut would: no goodbye, no last report. */
  stop(): Promise<void>;
  /** Starts it again as a router booting: a new epoch, counters from the start. */
  restart(): Promise<void>;
}

/** Starts one agent against a console. */
export interface DeviceDriver {
  /** Names the agent in the suite's titles ("simulator", "openwrt-agent"). */
  readonly name: string;
  /**
   * The command types the agent declares it runs (its hello's `command_types`); the suite sends one
   * of each it knows how to check. `shell` at least.
   */
  readonly commandTypes: readonly CommandType[];
  start(console: ConformanceConsole, identity: ConformanceIdentity): Promise<DeviceUnderTest>;
}
