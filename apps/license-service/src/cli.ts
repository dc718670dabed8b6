import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { LicenseActivationRequestSchema } from "@cellfleet/contract";
import { decideActivation } from "./activate";
import { addKey, releaseKey, setBanned } from "./admin";
import { createLicenseServer } from "./server";
import { generateSigningKeys, loadPrivateKey, publicKeyBase64, signLicense } from "./signing";
import { createKeyStore } from "./store";

// The licence service's one command: `serve`, and the vendor's admin commands (README.md).

const USAGE = `license-service <command> [options]
  serve       [--port 3400] [--host 127.0.0.1] [--seed f]  run the service (--seed: the key file to start from)
  keygen      --out private.pem                            new Ed25519 signing key; prints its public key
  public-key                                               prints the public key of --private-key
  add-key     --devices N --days D [--from ISO] [--installations M] [--note text] [--key HEX]
  ban KEY | unban KEY                                      the next activation or refresh says 'banned'
  release KEY [--fingerprint F]                            unbinds installations from a key
  issue       --key KEY --fingerprint F [--out file]       a signed licence file (offline activation)
  list                                                     keys and their installations
Common: --keys keys.json (LICENSE_KEYS_FILE), --private-key key.pem (LICENSE_PRIVATE_KEY_FILE)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    keys: { type: "string" },
    "private-key": { type: "string" },
    out: { type: "string" },
    devices: { type: "string" },
    days: { type: "string" },
    from: { type: "string" },
    installations: { type: "string" },
    note: { type: "string" },
    key: { type: "string" },
    fingerprint: { type: "string" },
    seed: { type: "string" },
  },
});

const [command, argument] = positionals;
const keysPath = values.keys ?? process.env.LICENSE_KEYS_FILE ?? "keys.json";
const store = createKeyStore(keysPath);
const privateKeyPath = () => {
  const path = values["private-key"] ?? process.env.LICENSE_PRIVATE_KEY_FILE;
  if (!path) throw new Error("name the signing key: --private-key or LICENSE_PRIVATE_KEY_FILE");
  return path;
};

async function main(): Promise<void> {
  switch (command) {
    case "serve": {
      const privateKey = loadPrivateKey(readFileSync(privateKeyPath(), "utf8"));
      const port = Number(values.port ?? process.env.LICENSE_SERVICE_PORT ?? 3400);
      const host = values.host ?? process.env.LICENSE_SERVICE_HOST ?? "127.0.0.1";
      if (values.seed && !existsSync(keysPath)) {
        mkdirSync(dirname(keysPath), { recursive: true });
        copyFileSync(values.seed, keysPath);
      }
      const server = createLicenseServer({ store, privateKey });
      server.listen(port, host, () =>
        console.log(`licence service on http://${host}:${port}; public key ${publicKeyBase64(privateKey)}`),
      );
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.close());
      return;
    }
    case "keygen": {
      if (!values.out) throw new Error("--out names the private key file to write");
      const keys = generateSigningKeys();
      writeFileSync(values.out, keys.privateKeyPem, { mode: 0o600, flag: "wx" });
      console.log(keys.publicKey);
      return;
    }
    case "public-key":
      console.log(publicKeyBase64(loadPrivateKey(readFileSync(privateKeyPath(), "utf8"))));
      return;
    case "add-key": {
      const record = await store.update((file) =>
        addKey(
          file,
          {
            deviceCount: Number(values.devices),
            days: Number(values.days),
            from: values.from ? new Date(values.from) : undefined,
            maxInstallations: values.installations ? Number(values.installations) : undefined,
            note: values.note,
            key: values.key,
          },
          new Date(),
        ),
      );
      console.log(JSON.stringify(record, null, 2));
      return;
    }
    case "ban":
    case "unban":
      await store.update((file) => setBanned(file, required(argument, "KEY"), command === "ban"));
      console.log(`${command === "ban" ? "banned" : "unbanned"} ${argument}`);
      return;
    case "release":
      console.log(
        `released ${await store.update((file) => releaseKey(file, required(argument, "KEY"), values.fingerprint))}`,
      );
      return;
    case "issue": {
      const privateKey = loadPrivateKey(readFileSync(privateKeyPath(), "utf8"));
      const request = LicenseActivationRequestSchema.parse({
        key: values.key?.toLowerCase(),
        fingerprint: values.fingerprint?.toLowerCase(),
      });
      const payload = await store.update((file) => decideActivation(file, request, new Date()));
      const text = `${JSON.stringify(signLicense(payload, privateKey), null, 2)}\n`;
      if (values.out) writeFileSync(values.out, text);
      else process.stdout.write(text);
      if (payload.status !== "active") console.error(`note: the licence says '${payload.status}'`);
      return;
    }
    case "list": {
      const file = await store.read();
      for (const record of file.keys) {
        const bound = file.activations[record.key] ?? [];
        console.log(
          `${record.key} ${record.deviceCount} devices ${record.validFrom} → ${record.validUntil}` +
            `${record.banned ? " BANNED" : ""} installations ${bound.length}/${record.maxInstallations} ${record.note}`,
        );
      }
      return;
    }
    default:
      console.log(USAGE);
      process.exitCode = command ? 2 : 0;
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required`);
  return value;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
