import { mkdtempSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLicenseServer } from "../../apps/license-service/src/server";
import { loadPrivateKey, signLicense } from "../../apps/license-service/src/signing";
import { createKeyStore } from "../../apps/license-service/src/store";
import type { LicenseDocument, LicensePayload } from "../../packages/contract/src/licenses";

const SERVICE_DIR = fileURLToPath(new URL("../../apps/license-service/", import.meta.url));

/** The demo keys of apps/license-service/dev/keys.json that the licence spec adds. */
export const DEMO_LICENSE_KEYS = {
  active: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  banned: "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210",
  expired: "a".repeat(64),
  /** Known to the service too, so the daily refresh of an offline-activated licence answers the same. */
  offline: "b".repeat(64),
} as const;

/**
 * Starts the vendor's licence service on a free loopback port with the development key pair (whose
 * public half is the console's default LICENSE_PUBLIC_KEYS) and a copy of the demo keys; answers its URL.
 */
export async function startLicenseService(): Promise<string> {
  const keysPath = join(mkdtempSync(join(tmpdir(), "cellfleet-e2e-licences-")), "keys.json");
  const store = createKeyStore(keysPath);
  const seed = JSON.parse(readFileSync(join(SERVICE_DIR, "dev/keys.json"), "utf8"));
  await store.update((file) => Object.assign(file, seed));
  const server = createLicenseServer({
    store,
    privateKey: loadPrivateKey(readFileSync(join(SERVICE_DIR, "dev/dev-private.pem"), "utf8")),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Signs a licence with the development key, as the vendor's `issue` command does (offline files). */
export function signDemoLicense(payload: LicensePayload): LicenseDocument {
  return signLicense(payload, loadPrivateKey(readFileSync(join(SERVICE_DIR, "dev/dev-private.pem"), "utf8")));
}
