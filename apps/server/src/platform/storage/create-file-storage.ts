import path from "node:path";
import type { Config } from "../config";
import type { FileStorage } from "./file-storage";
import { createLocalFileStorage } from "./local-storage";
import { createS3FileStorage } from "./s3-storage";

/** The folder under DATA_DIR that holds local files. */
export const LOCAL_FILES_DIR = "files";

/** The storage the config names: S3 when S3_URL is set, else the local disk under DATA_DIR/files. */
export function createFileStorage(config: Pick<Config, "dataDir" | "s3">): FileStorage {
  return config.s3
    ? createS3FileStorage(config.s3)
    : createLocalFileStorage(path.join(config.dataDir, LOCAL_FILES_DIR));
}

/** Where files go, for the start-up log: never the S3 credentials. */
export function describeFileStorage(config: Pick<Config, "dataDir" | "s3">): Record<string, string> {
  if (!config.s3) return { kind: "local", dir: path.join(config.dataDir, LOCAL_FILES_DIR) };
  const { endpoint, bucket, prefix, region } = config.s3;
  return { kind: "s3", endpoint, bucket, prefix, region };
}
