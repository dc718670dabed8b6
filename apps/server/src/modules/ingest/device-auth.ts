import {
  canDevicePublish,
  canDeviceSubscribe,
  unsupportedTopicReason,
  verifyDeviceToken,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema";
import { ingestRepo } from "./ingest.repo";
import type { RefusalRecorder } from "./refusal-recorder";

/** The answer to a device's CONNECT: allowed, or the reason it was refused. */
export type DeviceAuthResult =
  | { ok: true }
  | { ok: false; reason: "unknown_device" | "no_key" | "bad_token" | "bad_username" };

/** Checks a device's credentials: client id = username = ident, password = the token of its key. */
export type DeviceAuthenticator = (
  clientId: string,
  username: string | undefined,
  password: string | undefined,
  peer?: { address: string | undefined },
) => Promise<DeviceAuthResult>;

/**
 * Device authentication against the devices table (docs/device-protocol.md 2). With a recorder, each
 * refusal is noted under its ident (with the peer's address, never the password) for the device page.
 */
export function createDeviceAuthenticator(db: Kysely<DB>, recorder?: RefusalRecorder): DeviceAuthenticator {
  const check = createCredentialCheck(db);
  if (!recorder) return check;
  return async (clientId, username, password, peer) => {
    const result = await check(clientId, username, password);
    if (!result.ok) recorder.record(clientId, result.reason, peer?.address);
    return result;
  };
}

function createCredentialCheck(db: Kysely<DB>): DeviceAuthenticator {
  const repo = ingestRepo(db);
  return async (clientId, username, password) => {
    if (username !== clientId) return { ok: false, reason: "bad_username" };
    const device = await repo.findDeviceKeyAcrossDomains(clientId);
    if (!device) return { ok: false, reason: "unknown_device" };
    if (!device.aes_key) return { ok: false, reason: "no_key" };
    const valid = password !== undefined && (await verifyDeviceToken(clientId, device.aes_key, password));
    return valid ? { ok: true } : { ok: false, reason: "bad_token" };
  };
}

/** What an ACL check asks: publish or subscribe on a topic. */
export type DeviceAccess = "publish" | "subscribe";

/**
 * Whether the device may publish or subscribe on the topic (only under its own ident). A publish on
 * an unsupported topic of its own (v2, a new collect type) is let through, to be acknowledged,
 * counted and explained rather than to close the connection (docs/device-protocol.md 9); with an
 * external broker that is what the HTTP ACL hook answers.
 */
export function isDeviceAccessAllowed(ident: string, access: DeviceAccess, topic: string): boolean {
  if (access === "subscribe") return canDeviceSubscribe(ident, topic);
  return canDevicePublish(ident, topic) || unsupportedTopicReason(ident, topic) !== null;
}
