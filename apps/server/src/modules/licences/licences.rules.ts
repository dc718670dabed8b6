import { LICENSE_STATUS, type LicenseError, type LicensePayload } from "@cellfleet/contract";
import type { LicenseRow } from "../../platform/db/schema-licenses";

// The licence rules (spec §4, ADR 022) as pure functions of the stored rows and the clock: the
// status is computed when read, so a licence turns Expired at its end without anyone writing it.

/** The licence is in its period and the vendor said active: its routers count. */
export function isInForce(payload: LicensePayload | null, now: Date): boolean {
  if (payload?.status !== "active" || !payload.validFrom || !payload.validUntil) return false;
  const at = now.getTime();
  return new Date(payload.validFrom).getTime() <= at && at < new Date(payload.validUntil).getTime();
}

/**
 * The status code of spec §4. A held licence decides it (a failed refresh does not take a valid
 * licence away: the console keeps working while the service is unreachable); without one, the last
 * attempt does: Pending before any answer, Server error when the service could not be reached.
 */
export function licenseStatusOf(row: Pick<LicenseRow, "document" | "last_error">, now: Date): number {
  const payload = row.document;
  if (payload) {
    switch (payload.status) {
      case "active":
        if (payload.validFrom && now.getTime() < new Date(payload.validFrom).getTime())
          return LICENSE_STATUS.activated;
        return isInForce(payload, now) ? LICENSE_STATUS.ready : LICENSE_STATUS.expired;
      case "banned":
        return LICENSE_STATUS.banned;
      case "expired":
        return LICENSE_STATUS.expired;
      default:
        return LICENSE_STATUS.error;
    }
  }
  switch (row.last_error) {
    case null:
      return LICENSE_STATUS.pending;
    case "unreachable":
    case "server_error":
    case "not_configured":
      return LICENSE_STATUS.serverError;
    case "signature_invalid":
    case "answer_invalid":
      return LICENSE_STATUS.invalid;
    default:
      return LICENSE_STATUS.error;
  }
}

/** What the web shows a critical message from: the last attempt's failure, else the held licence's refusal. */
export function licenseErrorOf(
  row: Pick<LicenseRow, "document" | "last_error">,
  now: Date,
): LicenseError | null {
  if (row.last_error) return row.last_error;
  switch (row.document?.status) {
    case "banned":
      return "banned";
    case "expired":
      return "expired";
    case "unknown":
      return "unknown_key";
    case "fingerprint_mismatch":
      return "fingerprint_mismatch";
    case "active":
      return licenseStatusOf(row, now) === LICENSE_STATUS.expired ? "expired" : null;
    default:
      return null;
  }
}

/**
 * The installation's router allowance. Once the vendor has activated any licence here, the limit is
 * the sum of the licences in force (an expired or banned one counts 0: no new routers, but those in
 * the console keep working). Before that the installation is unlicensed: `unlicensedLimit` routers,
 * 0 meaning no limit (ADR 022 says why).
 */
export function deviceAllowance(
  rows: readonly Pick<LicenseRow, "document" | "activation_date">[],
  now: Date,
  unlicensedLimit: number,
): { licensed: boolean; limit: number | null } {
  const licensed = rows.some((row) => row.activation_date !== null);
  if (!licensed) return { licensed, limit: unlicensedLimit > 0 ? unlicensedLimit : null };
  const limit = rows.reduce(
    (sum, row) => sum + (isInForce(row.document, now) ? (row.document?.deviceCount ?? 0) : 0),
    0,
  );
  return { licensed, limit };
}

/** The key as the list shows it: enough to tell keys apart, not enough to copy one. */
export function shortLicenseId(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`.toUpperCase();
}
