import { createHmac } from "node:crypto";
import { COMMAND_TYPES, zeroTouchPasswordMessage } from "@cellfleet/contract";
import { QUIET_BEHAVIOUR, VirtualRouter, type VirtualRouterOptions } from "@cellfleet/simulator";
import type { ConformanceConsole, ConformanceIdentity, DeviceDriver, DeviceUnderTest } from "./driver";

// The simulator (apps/simulator) as a device under test: one VirtualRouter per start, quick collect
// rounds so "many collects" take a second, and a restart that boots it with its counters back at 1
// and a new epoch, as a router that lost its flash.

/** Its ident from a zero-touch claim: the model's and serial's letters and digits, as a router builds it. */
function zeroTouchIdent(model: string, serial: string): string {
  return `${model}${serial}`.replace(/[^A-Za-z0-9]/g, "").slice(0, 64);
}

function optionsFor(console: ConformanceConsole, identity: ConformanceIdentity): VirtualRouterOptions {
  const base = {
    url: console.mqttUrl,
    intervalMs: 250,
    behaviour: QUIET_BEHAVIOUR,
    commandDelayMs: 50,
    rebootDowntimeMs: 300,
    reconnectPeriodMs: 200,
  };
  if (identity.kind === "key") return { ...base, ident: identity.ident, key: identity.key };
  const ident = zeroTouchIdent(identity.model, identity.serial);
  const username = `zt1:${identity.keyId}:${identity.model}:${identity.serial}:`;
  const password = createHmac("sha256", Buffer.from(identity.secret, "hex"))
    .update(zeroTouchPasswordMessage(ident, username), "utf8")
    .digest("hex");
  return { ...base, ident, key: "0".repeat(64), credentials: { username, password } };
}

/** Drives apps/simulator's VirtualRouter; it runs every command type. */
export const simulatorDriver: DeviceDriver = {
  name: "simulator",
  commandTypes: COMMAND_TYPES,
  async start(console, identity) {
    const options = optionsFor(console, identity);
    let epoch = 1;
    let router = new VirtualRouter({ ...options, epoch });
    await router.start();
    const device: DeviceUnderTest = {
      ident: options.ident,
      stop: () => router.stop(),
      async restart() {
        await router.stop();
        epoch++;
        router = new VirtualRouter({ ...options, epoch, startSeq: 1 });
        await router.start();
      },
    };
    return device;
  },
};
