import { describe, expect, it } from "vitest";
import { parseS3Url, S3UrlError } from "./s3-url";

describe("parseS3Url", () => {
  it("reads endpoint, bucket, credentials and defaults (path-style, us-east-1)", () => {
    expect(parseS3Url("http://minio:minio-secret@127.0.0.1:9000/cellfleet")).toEqual({
      endpoint: "http://127.0.0.1:9000",
      bucket: "cellfleet",
      prefix: "",
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "minio", secretAccessKey: "minio-secret" },
    });
  });

  it("reads a prefix, the region, virtual-host addressing and percent-encoded secrets", () => {
    expect(
      parseS3Url(
        "https://AKIA123:a%2Fb%2Bc%40d@s3.eu-central-1.amazonaws.com/fleet-files/prod/eu?region=eu-central-1&addressing=virtual",
      ),
    ).toEqual({
      endpoint: "https://s3.eu-central-1.amazonaws.com",
      bucket: "fleet-files",
      prefix: "prod/eu",
      region: "eu-central-1",
      forcePathStyle: false,
      credentials: { accessKeyId: "AKIA123", secretAccessKey: "a/b+c@d" },
    });
  });

  it("leaves credentials to the AWS SDK's own chain when the URL has none", () => {
    expect(parseS3Url("https://s3.amazonaws.com/fleet-files").credentials).toBeUndefined();
  });

  it.each([
    ["not a url", "must be a URL"],
    ["s3://key:s3cr3t-value@host/bucket", "http:// or https://"],
    ["https://key:s3cr3t-value@host", "must name a bucket"],
    ["https://key:s3cr3t-value@host/Bad_Bucket", "must name a bucket"],
    ["https://key:s3cr3t-value@host/bucket/a%20b", "prefix"],
    ["https://key:s3cr3t-value@host/bucket?tls=false", "unknown parameter 'tls'"],
    ["https://key:s3cr3t-value@host/bucket?addressing=dns", "addressing"],
    ["https://key@host/bucket", "both an access key and a secret"],
    ["https://key:%E0%A4%A@host/bucket", "malformed"],
  ])("refuses %j, never repeating the secret", (value, message) => {
    const error = (() => {
      try {
        parseS3Url(value);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(S3UrlError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain("s3cr3t-value");
  });
});
