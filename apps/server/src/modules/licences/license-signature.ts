import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { type LicenseDocument, LicenseDocumentSchema, licensePayloadText } from "@cellfleet/contract";

/** The outcome of checking a licence document. */
export type LicenseCheck =
  | { ok: true; document: LicenseDocument }
  | { ok: false; error: "answer_invalid" | "signature_invalid" | "fingerprint_mismatch" };

/**
 * Checks a licence document offline: its shape, its Ed25519 signature against any of the vendor's
 * public keys (several while a key is rotated), and that it was issued for this installation (and,
 * when asked, for this key). Nothing here talks to the network.
 */
export function createLicenseVerifier(publicKeys: readonly string[]) {
  const keys: KeyObject[] = publicKeys.map((key) =>
    createPublicKey({ key: Buffer.from(key, "base64"), format: "der", type: "spki" }),
  );
  return {
    check(value: unknown, expected: { fingerprint: string; key?: string }): LicenseCheck {
      const parsed = LicenseDocumentSchema.safeParse(value);
      if (!parsed.success) return { ok: false, error: "answer_invalid" };
      const document = parsed.data;
      const text = Buffer.from(licensePayloadText(document.payload), "utf8");
      const signature = Buffer.from(document.signature, "base64");
      if (!keys.some((key) => verify(null, text, key, signature)))
        return { ok: false, error: "signature_invalid" };
      if (document.payload.fingerprint !== expected.fingerprint)
        return { ok: false, error: "fingerprint_mismatch" };
      if (expected.key !== undefined && document.payload.key !== expected.key)
        return { ok: false, error: "answer_invalid" };
      return { ok: true, document };
    },
  };
}

export type LicenseVerifier = ReturnType<typeof createLicenseVerifier>;
