import type { LicenseActivationRequest, LicensePayload } from "@cellfleet/contract";
import type { KeyFile } from "./store";

/**
 * Decides what the service signs for a key on an installation, and records a new binding in
 * `file` (the caller writes it back). A banned or expired key, an unknown key, or a key already
 * bound to as many installations as it allows is answered too (signed), never silently refused:
 * the console must be able to trust a ban as much as an activation.
 */
export function decideActivation(
  file: KeyFile,
  request: LicenseActivationRequest,
  now: Date,
): LicensePayload {
  const base = {
    v: 1 as const,
    key: request.key,
    fingerprint: request.fingerprint,
    issuedAt: now.toISOString(),
  };
  const record = file.keys.find((entry) => entry.key === request.key);
  if (!record) return { ...base, status: "unknown", validFrom: null, validUntil: null, deviceCount: 0 };
  const period = { validFrom: record.validFrom, validUntil: record.validUntil };
  if (record.banned) return { ...base, ...period, status: "banned", deviceCount: 0 };
  const bound = file.activations[record.key] ?? [];
  if (!bound.includes(request.fingerprint)) {
    if (bound.length >= record.maxInstallations)
      return { ...base, ...period, status: "fingerprint_mismatch", deviceCount: 0 };
    file.activations[record.key] = [...bound, request.fingerprint];
  }
  if (new Date(record.validUntil).getTime() <= now.getTime())
    return { ...base, ...period, status: "expired", deviceCount: 0 };
  return { ...base, ...period, status: "active", deviceCount: record.deviceCount };
}
