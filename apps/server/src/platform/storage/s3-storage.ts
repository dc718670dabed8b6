import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import {
  assertRangeWithin,
  assertStorageKey,
  type FileStorage,
  fileNotFound,
  MeasuringStream,
} from "./file-storage";
import type { S3Config } from "./s3-url";

/** S3's smallest multipart part; one part in flight at a time keeps a put's memory near this. */
const PART_SIZE_BYTES = 5 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404)
  );
}

/** The S3 client for a config: path-style by default, and checksums only where S3 requires them. */
export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // The SDK's default CRC32 trailers (aws-chunked bodies) are unknown to older MinIO, Ceph and s3rver.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/**
 * Files as objects in an S3-compatible bucket (MinIO, Ceph, AWS S3). A put is a multipart upload
 * of unknown length fed part by part; a failed or too-large one is aborted, so no object appears.
 */
export function createS3FileStorage(
  config: S3Config,
  client: S3Client = createS3Client(config),
): FileStorage {
  const objectKey = (key: string): string => {
    assertStorageKey(key);
    return config.prefix === "" ? key : `${config.prefix}/${key}`;
  };
  const statOf = async (key: string) => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };

  return {
    kind: "s3",

    async put(key, body, options = {}) {
      const measuring = new MeasuringStream(options.maxBytes);
      const upload = new Upload({
        client,
        params: { Bucket: config.bucket, Key: objectKey(key), Body: measuring },
        partSize: PART_SIZE_BYTES,
        queueSize: 1,
      });
      // A too-large or broken body fails `measuring`; the upload reading it then aborts its parts.
      const feeding = pipeline(body, measuring);
      let feedError: unknown;
      feeding.catch((error: unknown) => {
        feedError = error;
      });
      try {
        await upload.done();
        await feeding;
      } catch (error) {
        measuring.destroy();
        throw feedError ?? error;
      }
      return measuring.result();
    },

    async get(key, range) {
      let size: number | undefined;
      if (range) {
        const info = await statOf(key);
        if (!info) throw fileNotFound(key);
        assertRangeWithin(range, info.size);
        size = info.size;
      }
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket: config.bucket,
            Key: objectKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        const stream = object.Body instanceof Readable ? object.Body : Readable.from([]);
        const total = size ?? object.ContentLength ?? 0;
        return { stream, size: total, range: range ?? { start: 0, end: total - 1 } };
      } catch (error) {
        if (isNotFound(error)) throw fileNotFound(key);
        throw error;
      }
    },

    stat: statOf,

    async exists(key) {
      return (await statOf(key)) !== null;
    },

    async delete(key) {
      // S3 answers a delete of a missing object with success, which is the idempotence wanted.
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
    },

    async close() {
      client.destroy();
    },
  };
}
