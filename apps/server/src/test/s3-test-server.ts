import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { parseS3Url, type S3Config } from "../platform/storage/s3-url";

/** The bucket every test S3 server starts with. */
export const TEST_BUCKET = "cellfleet-test";

/** An S3-protocol server of the test's own (s3rver) on a free loopback port, over a temporary folder. */
export interface S3TestServer {
  /** An S3_URL for it, credentials included (s3rver's fixed S3RVER:S3RVER). */
  url: string;
  config: S3Config;
  /** The folder s3rver keeps buckets and objects in. */
  directory: string;
  close(): Promise<void>;
}

/** Starts s3rver with TEST_BUCKET created; production uses MinIO, Ceph or AWS S3 instead. */
export async function startS3TestServer(): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "cellfleet-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  const url = `http://S3RVER:S3RVER@127.0.0.1:${port}/${TEST_BUCKET}?region=us-east-1`;
  return {
    url,
    config: parseS3Url(url),
    directory,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
