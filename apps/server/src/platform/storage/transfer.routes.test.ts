import { createHash } from "node:crypto";
import http from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trickleBody } from "../../test/test-streams";
import {
  DEVICE,
  openTransferTestApp,
  TRANSFER_TEST_STORAGES,
  type TransferTestApp,
} from "../../test/transfer-fixtures";
import { newStorageKey } from "./file-storage";

describe.each(TRANSFER_TEST_STORAGES)(
  "device file transfer through signed URLs, stored on $name",
  (backend) => {
    let fixture: TransferTestApp;
    beforeAll(async () => {
      fixture = await openTransferTestApp(backend);
    });
    afterAll(async () => {
      await fixture.close();
    });

    const body = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    /** The app over a real connection (listening once, for the tests that need a socket). */
    const origin = async () => {
      const { server } = fixture.test.app;
      if (!server.listening) await fixture.test.app.listen({ port: 0, host: "127.0.0.1" });
      const address = server.address();
      return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    };

    describe("GET", () => {
      it("streams the whole file to the device the URL names, with no session", async () => {
        const key = await fixture.storedFile(body);
        const response = await fixture.test.app.inject({
          method: "GET",
          url: fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" }),
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers["accept-ranges"]).toBe("bytes");
        expect(response.headers["content-length"]).toBe("100");
        expect(response.rawPayload.equals(body)).toBe(true);
      });

      it("answers HEAD on a download URL with the size and no body", async () => {
        const key = await fixture.storedFile(body);
        const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
        const response = await fixture.test.app.inject({ method: "HEAD", url });
        expect(response.statusCode).toBe(200);
        expect(response.headers["content-length"]).toBe("100");
        expect(response.rawPayload.length).toBe(0);
      });

      it("answers a Range with 206 and Content-Range, and a suffix range with the last bytes", async () => {
        const key = await fixture.storedFile(body);
        const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
        const middle = await fixture.test.app.inject({
          method: "GET",
          url,
          headers: { range: "bytes=10-19" },
        });
        expect(middle.statusCode).toBe(206);
        expect(middle.headers["content-range"]).toBe("bytes 10-19/100");
        expect(middle.headers["content-length"]).toBe("10");
        expect([...middle.rawPayload]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
        const resume = await fixture.test.app.inject({ method: "GET", url, headers: { range: "bytes=95-" } });
        expect(resume.statusCode).toBe(206);
        expect(resume.headers["content-range"]).toBe("bytes 95-99/100");
        expect([...resume.rawPayload]).toEqual([95, 96, 97, 98, 99]);
        const suffix = await fixture.test.app.inject({ method: "GET", url, headers: { range: "bytes=-3" } });
        expect(suffix.headers["content-range"]).toBe("bytes 97-99/100");
        expect([...suffix.rawPayload]).toEqual([97, 98, 99]);
      });

      it("answers 416 with the file's size for a range past its end", async () => {
        const key = await fixture.storedFile(body);
        const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
        const response = await fixture.test.app.inject({
          method: "GET",
          url,
          headers: { range: "bytes=100-" },
        });
        expect(response.statusCode).toBe(416);
        expect(response.headers["content-range"]).toBe("bytes */100");
        expect(response.json()).toMatchObject({ code: "BAD_REQUEST" });
      });

      it("answers FILE_NOT_FOUND for a signed key with no file", async () => {
        const url = fixture.signer.sign({ fileId: newStorageKey(), deviceId: DEVICE, method: "GET" });
        const response = await fixture.test.app.inject({ method: "GET", url });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: "FILE_NOT_FOUND" });
      });
    });

    describe("PUT", () => {
      it("stores the raw body of any content type, past the 1 MiB JSON body limit, and reports it", async () => {
        const key = newStorageKey();
        const upload = Buffer.alloc(3 * 1024 * 1024, 7);
        const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
        const response = await fixture.test.app.inject({
          method: "PUT",
          url,
          headers: { "content-type": "application/json" },
          payload: upload,
        });
        expect(response.statusCode).toBe(200);
        const sha256 = createHash("sha256").update(upload).digest("hex");
        expect(response.json()).toEqual({ size: upload.length, sha256 });
        expect(fixture.state.uploaded.find((entry) => entry.grant.fileId === key)).toMatchObject({
          grant: { deviceId: DEVICE, method: "PUT" },
          size: upload.length,
          sha256,
        });
        expect(await fixture.test.storage.stat(key)).toEqual({ size: upload.length });
      });

      it("stores a streamed body sent without a content type or length", async () => {
        const key = newStorageKey();
        const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
        const response = await fixture.test.app.inject({
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
      ])("refuses a body over the limit %s with 413 BAD_REQUEST and keeps nothing", async (_how, payload) => {
        const key = newStorageKey();
        fixture.state.smallUploads.add(key);
        const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
        const response = await fixture.test.app.inject({
          method: "PUT",
          url,
          payload: payload(Buffer.alloc(2000, 1)),
        });
        expect(response.statusCode).toBe(413);
        expect(response.json()).toMatchObject({ code: "BAD_REQUEST" });
        expect(await fixture.test.storage.exists(key)).toBe(false);
      });

      it("answers 413 over a real connection while a chunked upload is still being sent", async () => {
        const key = newStorageKey();
        fixture.state.smallUploads.add(key);
        const url = new URL(
          fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" }),
          await origin(),
        );
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
          trickleBody(request, { everyMs: 1, stopAfter: 64 * 1024 });
        });
        expect(status).toBe(413);
        expect(await fixture.test.storage.exists(key)).toBe(false);
      });

      it("deletes the stored body when the feature refuses the upload", async () => {
        const key = newStorageKey();
        fixture.state.refusedUploads.add(key);
        const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
        const response = await fixture.test.app.inject({
          method: "PUT",
          url,
          payload: Buffer.from("unexpected"),
        });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: "COMMAND_FILE_NOT_FOUND" });
        expect(await fixture.test.storage.exists(key)).toBe(false);
      });
    });
  },
);
