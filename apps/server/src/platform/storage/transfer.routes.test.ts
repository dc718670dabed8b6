import { createHash } from "node:crypto";
import http from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3TestServer, startS3TestServer } from "../../test/s3-test-server";
import { createTestApp, type TestApp } from "../../test/test-app";
import { AppError } from "../errors";
import { loadPlatformSecrets } from "../secrets";
import { type FileStorage, newStorageKey } from "./file-storage";
import { createS3FileStorage } from "./s3-storage";
import { createTransferUrlSigner, type TransferGrant, type TransferUrlSigner } from "./signed-url";
import type { TransferHooks } from "./transfer.routes";

const DEVICE = "RUT955-000123";
const OTHER_DEVICE = "RUT955-000999";
const MINUTE = 60_000;

/** Files that belong to another device than the one asking, as the files feature would know them. */
const filesOfOtherDevices = new Set<string>();
/** What onUploaded saw, and keys whose upload it refuses. */
const uploaded: { grant: TransferGrant; size: number; sha256: string }[] = [];
const refusedUploads = new Set<string>();
/** Keys that may carry at most 1000 bytes. */
const smallUploads = new Set<string>();

const hooks: TransferHooks = {
  async authorize(grant) {
    if (filesOfOtherDevices.has(grant.fileId)) throw new AppError("ACCESS_DENIED", "Not this device's file");
  },
  async maxUploadBytes(grant) {
    return smallUploads.has(grant.fileId) ? 1000 : 50 * 1024 * 1024;
  },
  async onUploaded(grant, stored) {
    if (refusedUploads.has(grant.fileId))
      throw new AppError("COMMAND_FILE_NOT_FOUND", "No command awaits it");
    uploaded.push({ grant, ...stored });
  },
};

const STORAGES = [
  { name: "local disk", open: async () => ({ storage: undefined, close: async () => {} }) },
  {
    name: "S3 (s3rver)",
    open: async () => {
      const server: S3TestServer = await startS3TestServer();
      const storage = createS3FileStorage(server.config);
      return {
        storage: storage as FileStorage | undefined,
        close: async () => {
          await storage.close();
          await server.close();
        },
      };
    },
  },
];

describe.each(STORAGES)("device file transfer through signed URLs, stored on $name", (backend) => {
  let test: TestApp;
  let signer: TransferUrlSigner;
  let closeStorage: () => Promise<void>;

  beforeAll(async () => {
    const opened = await backend.open();
    closeStorage = opened.close;
    test = await createTestApp({ seed: false, storage: opened.storage, transferHooks: hooks });
    // A signer of its own over the same database signs what the app's does: every node agrees.
    signer = createTransferUrlSigner(await loadPlatformSecrets(test.db), test.clock.now, 15 * MINUTE);
  });
  afterAll(async () => {
    await test.close();
    await closeStorage();
  });

  async function storedFile(body: Buffer): Promise<string> {
    const key = newStorageKey();
    await test.storage.put(key, Readable.from([body]));
    return key;
  }

  /** The signed URL with one query field replaced (or removed with null). */
  function withQuery(url: string, name: string, value: string | null): string {
    const parsed = new URL(url, "http://localhost");
    if (value === null) parsed.searchParams.delete(name);
    else parsed.searchParams.set(name, value);
    return parsed.pathname + parsed.search;
  }

  const body = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

  describe("GET", () => {
    it("streams the whole file to the device the URL names, with no session", async () => {
      const key = await storedFile(body);
      const response = await test.app.inject({
        method: "GET",
        url: signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["accept-ranges"]).toBe("bytes");
      expect(response.headers["content-length"]).toBe("100");
      expect(response.rawPayload.equals(body)).toBe(true);
    });

    it("answers HEAD on a download URL with the size and no body", async () => {
      const key = await storedFile(body);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
      const response = await test.app.inject({ method: "HEAD", url });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-length"]).toBe("100");
      expect(response.rawPayload.length).toBe(0);
    });

    it("answers a Range with 206 and Content-Range, and a suffix range with the last bytes", async () => {
      const key = await storedFile(body);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
      const middle = await test.app.inject({ method: "GET", url, headers: { range: "bytes=10-19" } });
      expect(middle.statusCode).toBe(206);
      expect(middle.headers["content-range"]).toBe("bytes 10-19/100");
      expect(middle.headers["content-length"]).toBe("10");
      expect([...middle.rawPayload]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
      const resume = await test.app.inject({ method: "GET", url, headers: { range: "bytes=95-" } });
      expect(resume.statusCode).toBe(206);
      expect(resume.headers["content-range"]).toBe("bytes 95-99/100");
      expect([...resume.rawPayload]).toEqual([95, 96, 97, 98, 99]);
      const suffix = await test.app.inject({ method: "GET", url, headers: { range: "bytes=-3" } });
      expect(suffix.headers["content-range"]).toBe("bytes 97-99/100");
      expect([...suffix.rawPayload]).toEqual([97, 98, 99]);
    });

    it("answers 416 with the file's size for a range past its end", async () => {
      const key = await storedFile(body);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
      const response = await test.app.inject({ method: "GET", url, headers: { range: "bytes=100-" } });
      expect(response.statusCode).toBe(416);
      expect(response.headers["content-range"]).toBe("bytes */100");
      expect(response.json()).toMatchObject({ code: "BAD_REQUEST" });
    });

    it("answers FILE_NOT_FOUND for a signed key with no file", async () => {
      const url = signer.sign({ fileId: newStorageKey(), deviceId: DEVICE, method: "GET" });
      const response = await test.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "FILE_NOT_FOUND" });
    });
  });

  describe("PUT", () => {
    it("stores the raw body of any content type, past the 1 MiB JSON body limit, and reports it", async () => {
      const key = newStorageKey();
      const upload = Buffer.alloc(3 * 1024 * 1024, 7);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
      const response = await test.app.inject({
        method: "PUT",
        url,
        headers: { "content-type": "application/json" },
        payload: upload,
      });
      expect(response.statusCode).toBe(200);
      const sha256 = createHash("sha256").update(upload).digest("hex");
      expect(response.json()).toEqual({ size: upload.length, sha256 });
      expect(uploaded.find((entry) => entry.grant.fileId === key)).toMatchObject({
        grant: { deviceId: DEVICE, method: "PUT" },
        size: upload.length,
        sha256,
      });
      expect(await test.storage.stat(key)).toEqual({ size: upload.length });
    });

    it("stores a streamed body sent without a content type or length", async () => {
      const key = newStorageKey();
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
      const response = await test.app.inject({
        method: "PUT",
        url,
        payload: Readable.from([Buffer.from("journal line 1\n"), Buffer.from("journal line 2\n")]),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ size: 30 });
    });

    it.each([
      ["declared by Content-Length", (bytes: Buffer) => bytes],
      [
        "found while streaming",
        (bytes: Buffer) => Readable.from([bytes.subarray(0, 600), bytes.subarray(600)]),
      ],
    ])("refuses a body over the limit %s with PAYLOAD_TOO_LARGE and keeps nothing", async (_how, payload) => {
      const key = newStorageKey();
      smallUploads.add(key);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
      const response = await test.app.inject({ method: "PUT", url, payload: payload(Buffer.alloc(2000, 1)) });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
      expect(await test.storage.exists(key)).toBe(false);
    });

    it("answers 413 over a real connection while a chunked upload is still being sent", async () => {
      const key = newStorageKey();
      smallUploads.add(key);
      const address = await test.app.listen({ port: 0, host: "127.0.0.1" });
      const url = new URL(signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" }), address);
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          url,
          { method: "PUT", headers: { "transfer-encoding": "chunked" } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on("error", reject);
        // Keep sending well past the limit; the answer must arrive instead of a reset.
        let sent = 0;
        const timer = setInterval(() => {
          if (sent >= 64 * 1024 || request.destroyed) {
            clearInterval(timer);
            request.end();
            return;
          }
          request.write(Buffer.alloc(512, 2));
          sent += 512;
        }, 1);
      });
      expect(status).toBe(413);
      expect(await test.storage.exists(key)).toBe(false);
    });

    it("deletes the stored body when the feature refuses the upload", async () => {
      const key = newStorageKey();
      refusedUploads.add(key);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
      const response = await test.app.inject({ method: "PUT", url, payload: Buffer.from("unexpected") });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "COMMAND_FILE_NOT_FOUND" });
      expect(await test.storage.exists(key)).toBe(false);
    });
  });

  describe("refusals", () => {
    it("refuses a URL without a signature with TOKEN_NOT_GIVEN", async () => {
      const key = await storedFile(body);
      const url = withQuery(signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" }), "sig", null);
      const response = await test.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: "TOKEN_NOT_GIVEN" });
    });

    it("refuses an expired URL with TOKEN_HAS_EXPIRED once its lifetime has passed", async () => {
      const key = await storedFile(body);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
      test.clock.advanceMinutes(14);
      expect((await test.app.inject({ method: "GET", url })).statusCode).toBe(200);
      test.clock.advanceMinutes(1);
      const response = await test.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: "TOKEN_HAS_EXPIRED" });
    });

    it.each([
      ["the file", (url: string, key: string) => url.replace(key, newStorageKey())],
      ["the device", (url: string) => withQuery(url, "device", OTHER_DEVICE)],
      ["the method", (url: string) => withQuery(url, "method", "PUT")],
      [
        "the expiry",
        (url: string) =>
          withQuery(
            url,
            "expires",
            String(Number(new URL(url, "http://x").searchParams.get("expires")) + MINUTE),
          ),
      ],
      ["the signature", (url: string) => withQuery(url, "sig", "0".repeat(64))],
      ["the signature's form", (url: string) => withQuery(url, "sig", "not-hex")],
      ["the device's form", (url: string) => withQuery(url, "device", "../etc")],
      ["a missing expiry", (url: string) => withQuery(url, "expires", null)],
    ])("refuses a URL with %s altered with TOKEN_INVALID", async (_field, alter) => {
      const key = await storedFile(body);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
      const altered = alter(url, key);
      expect(altered).not.toBe(url);
      const method = altered.includes("method=PUT") ? "PUT" : "GET";
      const response = await test.app.inject({
        method,
        url: altered,
        payload: method === "PUT" ? "x" : undefined,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: "TOKEN_INVALID" });
    });

    it("refuses a traversal attempt in the file part of the path", async () => {
      const url = signer.sign({ fileId: await storedFile(body), deviceId: DEVICE, method: "GET" });
      const query = url.slice(url.indexOf("?"));
      for (const path of [
        "/api/transfer/..%2F..%2Fetc%2Fpasswd",
        "/api/transfer/%2Fetc%2Fpasswd",
        "/api/transfer/a%5Cb",
      ]) {
        const response = await test.app.inject({ method: "GET", url: path + query });
        expect(response.json()).toMatchObject({ code: "TOKEN_INVALID" });
      }
    });

    it("refuses a URL used with another method than it grants with ACCESS_DENIED", async () => {
      const key = await storedFile(body);
      const download = signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
      const put = await test.app.inject({ method: "PUT", url: download, payload: "overwrite" });
      expect(put.statusCode).toBe(403);
      expect(put.json()).toMatchObject({ code: "ACCESS_DENIED" });
      expect((await test.storage.stat(key))?.size).toBe(100);
      const upload = signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
      const get = await test.app.inject({ method: "GET", url: upload });
      expect(get.statusCode).toBe(403);
      expect(get.json()).toMatchObject({ code: "ACCESS_DENIED" });
    });

    it("refuses a URL signed for a file that is another device's with ACCESS_DENIED", async () => {
      const key = await storedFile(body);
      filesOfOtherDevices.add(key);
      const url = signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
      const response = await test.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: "ACCESS_DENIED" });
    });
  });
});
