import {
  CONNECT_REFUSALS,
  type ConnectRefusal,
  canDevicePublish,
  canDeviceSubscribe,
  identOfClientId,
  isZeroTouchUsername,
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
  | {
      ok: false;
      reason:
        | "unknown_device"
        | "no_key"
        | "bad_token"
        | "bad_username"
        | "adoption_pending"
        | "adoption_rejected";
    };

/**
 * Checks a device's credentials: client id = username = ident (or, for its publishing connection,
 * `{ident}-p`), password = the token of its key.
 */
export type DeviceAuthenticator = (
  clientId: string,
  username: string | undefined,
  password: string | undefined,
  peer?: { address: string | undefined },
) => Promise<DeviceAuthResult>;

/** The zero-touch path for a CONNECT whose user name is `zt1:…` (modules/zerotouch, docs/device-protocol.md, "Zero-touch join"). */
export type ZeroTouchCheck = DeviceAuthenticator;

function isConnectRefusal(reason: string): reason is ConnectRefusal {
  return (CONNECT_REFUSALS as readonly string[]).includes(reason);
}

/**
 * Device authentication against the devices table (docs/device-protocol.md 2), and with `zeroTouch`
 * the zero-touch path for `zt1:` user names. With a recorder, each refusal of a device's credentials
 * is noted under its ident (with the peer's address, never the password) for the device page; a
 * router waiting for adoption is in the adoption list instead.
 */
export function createDeviceAuthenticator(
  db: Kysely<DB>,
  recorder?: RefusalRecorder,
  zeroTouch?: ZeroTouchCheck,
): DeviceAuthenticator {
  const check = createCredentialCheck(db, zeroTouch);
  if (!recorder) return check;
  return async (clientId, username, password, peer) => {
    const result = await check(clientId, username, password, peer);
    if (!result.ok && isConnectRefusal(result.reason))
      recorder.record(identOfClientId(clientId), result.reason, peer?.address);
    return result;
  };
}

function createCredentialCheck(db: Kysely<DB>, zeroTouch?: ZeroTouchCheck): DeviceAuthenticator {
  const repo = ingestRepo(db);
  return async (clientId, username, password, peer) => {
    if (zeroTouch && isZeroTouchUsername(username)) return zeroTouch(clientId, username, password, peer);
    if (username !== clientId) return { ok: false, reason: "bad_username" };
    // A device's publishing connection `{ident}-p` proves the same ident with the same token.
    const ident = identOfClientId(clientId);
    const device = await repo.findDeviceKeyAcrossDomains(ident);
    if (!device) return { ok: false, reason: "unknown_device" };
    if (!device.aes_key) return { ok: false, reason: "no_key" };
    const valid = password !== undefined && (await verifyDeviceToken(ident, device.aes_key, password));
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
