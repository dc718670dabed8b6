/** Where S3-compatible object storage is and how to sign in to it, read from S3_URL. */
export interface S3Config {
  /** `http(s)://host[:port]`: the service endpoint. */
  endpoint: string;
  bucket: string;
  /** Prepended to every key with a `/`, so several installations can share one bucket; "" for none. */
  prefix: string;
  region: string;
  /** Path-style addressing (`host/bucket/key`), what MinIO, Ceph and s3rver expect; false: `bucket.host/key`. */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own chain (AWS_ACCESS_KEY_ID…, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const DEFAULT_REGION = "us-east-1";
const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT_PATTERN = /^[A-Za-z0-9._-]+$/;
const KNOWN_PARAMETERS = new Set(["region", "addressing"]);

/** Why an S3_URL cannot be used; the message never repeats the URL, which holds a secret. */
export class S3UrlError extends Error {
  override name = "S3UrlError";
}

function decodeComponent(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new S3UrlError("holds a malformed %-escape");
  }
}

/**
 * Parses `http(s)://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix…][?region=…&addressing=path|virtual]`
 * (key and secret percent-encoded). The scheme says whether TLS is used.
 */
export function parseS3Url(value: string): S3Config {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new S3UrlError("must be a URL like https://KEY:SECRET@host:9000/bucket");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new S3UrlError("must start with http:// or https://");
  }
  const [bucket = "", ...prefixParts] = url.pathname.split("/").filter((part) => part !== "");
  if (!BUCKET_PATTERN.test(bucket)) {
    throw new S3UrlError("must name a bucket (3-63 lowercase letters, digits, dots, dashes) as its path");
  }
  const prefix = prefixParts.map(decodeComponent);
  if (!prefix.every((part) => PREFIX_SEGMENT_PATTERN.test(part) && part !== "." && part !== "..")) {
    throw new S3UrlError("a key prefix after the bucket may hold only letters, digits, '.', '_' and '-'");
  }
  for (const name of url.searchParams.keys()) {
    if (!KNOWN_PARAMETERS.has(name))
      throw new S3UrlError(`unknown parameter '${name}' (known: region, addressing)`);
  }
  const addressing = url.searchParams.get("addressing") ?? "path";
  if (addressing !== "path" && addressing !== "virtual") {
    throw new S3UrlError("addressing must be 'path' or 'virtual'");
  }
  const accessKeyId = decodeComponent(url.username);
  const secretAccessKey = decodeComponent(url.password);
  if ((accessKeyId === "") !== (secretAccessKey === "")) {
    throw new S3UrlError("give both an access key and a secret (KEY:SECRET@), or neither");
  }
  return {
    endpoint: `${url.protocol}//${url.host}`,
    bucket,
    prefix: prefix.join("/"),
    region: url.searchParams.get("region") || DEFAULT_REGION,
    forcePathStyle: addressing === "path",
    credentials: accessKeyId === "" ? undefined : { accessKeyId, secretAccessKey },
  };
}
