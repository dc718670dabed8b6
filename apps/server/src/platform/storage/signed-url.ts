import { createHmac } from "node:crypto";
import { AppError } from "../errors";
import type { PlatformSecrets } from "../secrets";
import { signaturesMatch } from "../secrets";
import { isStorageKey } from "./file-storage";

/** Where devices fetch and store files; the path's last segment is the storage key. */
export const TRANSFER_PATH_PREFIX = "/api/transfer";

/** No URL is signed, or accepted, for longer than this from now (a day). */
export const MAX_TRANSFER_URL_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The HTTP methods a signed URL can grant: GET downloads, PUT uploads. */
export type TransferMethod = "GET" | "PUT";

/** What a signed URL grants: one device may use one method on one file until a moment. */
export interface TransferGrant {
  fileId: string;
  deviceId: string;
  method: TransferMethod;
  /** Milliseconds since the epoch; the URL is refused from then on. */
  expiresAt: number;
}

/** The query a transfer URL carries, as it arrives (any field may be missing or forged). */
export interface TransferQuery {
  device?: string;
  method?: string;
  expires?: string;
  sig?: string;
}

/** Device ids and idents: letters, digits and `._-`, so they need no escaping in a URL. */
const DEVICE_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
const EXPIRES_PATTERN = /^[0-9]{1,15}$/;

function isTransferMethod(value: string): value is TransferMethod {
  return value === "GET" || value === "PUT";
}

/**
 * HMAC-SHA256 over every granted field, one per line after a version tag. No field may hold a
 * newline (the patterns above), so two different grants never sign the same text.
 */
function signatureOf(key: Buffer, grant: TransferGrant): Buffer {
  const text = [
    "cellfleet-transfer-v1",
    grant.fileId,
    grant.deviceId,
    grant.method,
    String(grant.expiresAt),
  ].join("\n");
  return createHmac("sha256", key).update(text).digest();
}

/** Signs and verifies the short-lived URLs through which devices move files. */
export interface TransferUrlSigner {
  /**
   * The path and query of a URL granting `grant` (prepend the server's public origin); without
   * `expiresAt` it lives the configured FILE_URL_TTL_MINUTES.
   */
  sign(grant: Omit<TransferGrant, "expiresAt"> & { expiresAt?: number }): string;
  /**
   * The grant a request's URL carries, or the AppError refusing it: TOKEN_NOT_GIVEN (no signature),
   * TOKEN_INVALID (malformed or altered), TOKEN_HAS_EXPIRED, ACCESS_DENIED (another method).
   */
  verify(fileId: string, query: TransferQuery, httpMethod: string): TransferGrant;
}

/** A signer with the `file-url` key of the platform secrets, the given clock and default lifetime. */
export function createTransferUrlSigner(
  secrets: PlatformSecrets,
  now: () => Date,
  defaultLifetimeMs: number,
): TransferUrlSigner {
  const key = secrets.key("file-url");
  return {
    sign(request) {
      const grant: TransferGrant = {
        ...request,
        expiresAt: request.expiresAt ?? now().getTime() + defaultLifetimeMs,
      };
      if (!isStorageKey(grant.fileId))
        throw new RangeError(`Not a storage key: ${JSON.stringify(grant.fileId)}`);
      if (!DEVICE_ID_PATTERN.test(grant.deviceId))
        throw new RangeError(`Not a device id: ${JSON.stringify(grant.deviceId)}`);
      const lifetime = grant.expiresAt - now().getTime();
      if (
        !Number.isSafeInteger(grant.expiresAt) ||
        lifetime <= 0 ||
        lifetime > MAX_TRANSFER_URL_LIFETIME_MS
      ) {
        throw new RangeError("A transfer URL expires in the future, at most a day from now");
      }
      const query = new URLSearchParams({
        device: grant.deviceId,
        method: grant.method,
        expires: String(grant.expiresAt),
        sig: signatureOf(key, grant).toString("hex"),
      });
      return `${TRANSFER_PATH_PREFIX}/${grant.fileId}?${query.toString()}`;
    },

    verify(fileId, query, httpMethod) {
      const { device, method, expires, sig } = query;
      if (sig === undefined || sig === "")
        throw new AppError("TOKEN_NOT_GIVEN", "The URL carries no signature");
      if (
        device === undefined ||
        method === undefined ||
        expires === undefined ||
        !isStorageKey(fileId) ||
        !DEVICE_ID_PATTERN.test(device) ||
        !isTransferMethod(method) ||
        !EXPIRES_PATTERN.test(expires) ||
        !SIGNATURE_PATTERN.test(sig)
      ) {
        throw new AppError("TOKEN_INVALID", "The URL's signature does not match");
      }
      const grant: TransferGrant = { fileId, deviceId: device, method, expiresAt: Number(expires) };
      if (!signaturesMatch(signatureOf(key, grant), Buffer.from(sig, "hex"))) {
        throw new AppError("TOKEN_INVALID", "The URL's signature does not match");
      }
      // Checked only once the signature holds, so a forged expiry reads as forged, not as expired.
      const remaining = grant.expiresAt - now().getTime();
      if (remaining <= 0) throw new AppError("TOKEN_HAS_EXPIRED", "The URL has expired");
      if (remaining > MAX_TRANSFER_URL_LIFETIME_MS)
        throw new AppError("TOKEN_INVALID", "The URL lives too long");
      // HEAD asks what a GET would answer, so a download URL allows it too.
      const asked = httpMethod === "HEAD" ? "GET" : httpMethod;
      if (asked !== grant.method) {
        throw new AppError("ACCESS_DENIED", `The URL allows ${grant.method}, not ${httpMethod}`);
      }
      return grant;
    },
  };
}
