import {
  type BrokerAddress,
  type DeviceConnectInfo,
  generateDeviceKey,
  PROTOCOL_TOPIC_ROOT,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { Config } from "../../platform/config";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "../devices/devices.repo";
import { publishDevices, requireDeviceDomain, toDevicePushes } from "../devices/devices.service";
import { emitCredentialsChanged } from "../devices/devices-room";
import { refusalsRepo } from "../ingest/refusals.repo";

const DEFAULT_PORTS = { mqtt: 1883, mqtts: 8883 } as const;

/** A broker URL as routers are told it; tcp:// and tls:// (MQTT_URL spellings) read as mqtt:// and mqtts://. */
export function toBrokerAddress(value: string): BrokerAddress | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const scheme = { "mqtt:": "mqtt", "tcp:": "mqtt", "mqtts:": "mqtts", "tls:": "mqtts" }[url.protocol] as
    | "mqtt"
    | "mqtts"
    | undefined;
  if (!scheme || !url.hostname) return null;
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[scheme];
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { url: `${scheme}://${url.hostname}:${port}`, is_tls: scheme === "mqtts", host, port };
}

/**
 * Where routers connect: MQTT_PUBLIC_URL when set; otherwise, with an external broker, MQTT_URL's
 * host and port (without credentials); otherwise the console's own host (PUBLIC_URL) and the
 * embedded broker's port as it actually listens.
 */
export function publicBrokers(
  config: Pick<Config, "mqttPublicUrls" | "mqttUrl" | "publicUrl" | "mqttPort">,
  embeddedPort: number | null,
): BrokerAddress[] {
  const urls =
    config.mqttPublicUrls ??
    (config.mqttUrl
      ? [config.mqttUrl]
      : [`mqtt://${new URL(config.publicUrl).hostname}:${embeddedPort ?? config.mqttPort}`]);
  return urls.map(toBrokerAddress).filter((address): address is BrokerAddress => address !== null);
}

/** POST /api/device/{dev_id}/connect: what the router needs, and the gateway's last refusal of it. */
export async function readConnectInfo(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
  embeddedPort: number | null,
): Promise<DeviceConnectInfo> {
  const domainId = requireDeviceDomain(session);
  const device = await devicesRepo(ctx.db).findDevice(domainId, deviceId);
  if (!device) throw new AppError("DEVICE_NOT_FOUND");
  return {
    ident: device.ident,
    has_key: device.has_key ?? false,
    brokers: publicBrokers(ctx.config, embeddedPort),
    is_embedded_broker: ctx.config.mqttUrl === undefined,
    topic_root: `${PROTOCOL_TOPIC_ROOT}/${device.ident}`,
    last_refusal: await refusalsRepo(ctx.db).findDeviceRefusal(domainId, deviceId),
  };
}

/**
 * POST /api/device/{dev_id}/key (who may edit devices): a new AES key from the platform's
 * cryptographic random source replaces the old one. Answered this once; never again (the console
 * keeps only `has_key`). The router with the old key is refused from its next connect.
 */
export async function replaceDeviceKey(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
): Promise<{ aes_key: string }> {
  const domainId = requireDeviceDomain(session);
  const key = generateDeviceKey();
  const row = await ctx.jobs.transaction(async (trx) => {
    const repo = devicesRepo(trx);
    if (!(await repo.updateDevice(domainId, deviceId, { aes_key: key })))
      throw new AppError("DEVICE_NOT_FOUND");
    const updated = await repo.findDevice(domainId, deviceId);
    // The broker's account takes the new token too (MQTT_DYNSEC), after the commit.
    if (updated) await emitCredentialsChanged(ctx, trx, domainId, [updated.ident]);
    return updated;
  });
  if (row) await publishDevices(ctx, domainId, "update", await toDevicePushes(ctx, domainId, [row]));
  return { aes_key: key };
}
