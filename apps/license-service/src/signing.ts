import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { type LicenseDocument, type LicensePayload, licensePayloadText } from "@cellfleet/contract";

/** A new Ed25519 key pair: the private key as PKCS#8 PEM, the public key as SPKI DER in base64. */
export function generateSigningKeys(): { privateKeyPem: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKeyBase64(publicKey),
  };
}

/** Reads a PEM private key and checks that it is Ed25519 (any other kind is refused at start). */
export function loadPrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error("the private key must be an Ed25519 key");
  return key;
}

/** The public half as consoles configure it (LICENSE_PUBLIC_KEYS): SPKI DER, base64. */
export function publicKeyBase64(key: KeyObject): string {
  const publicKey = key.type === "private" ? createPublicKey(key) : key;
  return publicKey.export({ type: "spki", format: "der" }).toString("base64");
}

/** Signs a payload: the document the console verifies offline. */
export function signLicense(payload: LicensePayload, privateKey: KeyObject): LicenseDocument {
  const signature = sign(null, Buffer.from(licensePayloadText(payload), "utf8"), privateKey);
  return { payload, signature: signature.toString("base64") };
}
