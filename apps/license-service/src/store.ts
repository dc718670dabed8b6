import { readFile, rename, writeFile } from "node:fs/promises";
import { z } from "zod";

// The vendor's keys and the installations each is bound to, in one JSON file that the admin CLI
// edits and the service re-reads on every request (so a ban takes effect without a restart).

const IsoTime = z.iso.datetime();

/** One sold key: how many routers, for which period, and whether it is banned. */
export const KeyRecordSchema = z.object({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  deviceCount: z.number().int().min(1).max(10_000_000),
  validFrom: IsoTime,
  validUntil: IsoTime,
  banned: z.boolean().default(false),
  /** Installations (fingerprints) the key may be activated on. */
  maxInstallations: z.number().int().min(1).max(1000).default(1),
  /** The customer, for the vendor's own reference. */
  note: z.string().max(500).default(""),
});
export type KeyRecord = z.infer<typeof KeyRecordSchema>;

export const KeyFileSchema = z.object({
  keys: z.array(KeyRecordSchema).default([]),
  /** Key → the fingerprints it was activated on, in order. */
  activations: z.record(z.string(), z.array(z.string())).default({}),
});
export type KeyFile = z.infer<typeof KeyFileSchema>;

/** The key file on disk; writes are atomic (a temporary file renamed over it) and serialised. */
export interface KeyStore {
  read(): Promise<KeyFile>;
  /** Reads, lets `change` edit, and writes back, one change at a time. */
  update<T>(change: (file: KeyFile) => T): Promise<T>;
}

export function createKeyStore(path: string): KeyStore {
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<KeyFile> => {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { keys: [], activations: {} };
      throw error;
    }
    return KeyFileSchema.parse(JSON.parse(text));
  };
  const update = <T>(change: (file: KeyFile) => T): Promise<T> => {
    const run = queue.then(async () => {
      const file = await read();
      const result = change(file);
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, path);
      return result;
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return { read, update };
}
