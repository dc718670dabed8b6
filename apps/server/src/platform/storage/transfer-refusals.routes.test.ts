import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEVICE,
  OTHER_DEVICE,
  openTransferTestApp,
  TRANSFER_TEST_STORAGES,
  type TransferTestApp,
  withQuery,
} from "../../test/transfer-fixtures";
import { newStorageKey } from "./file-storage";

const MINUTE = 60_000;

describe.each(TRANSFER_TEST_STORAGES)("transfer URLs refused, stored on $name", (backend) => {
  let fixture: TransferTestApp;
  const body = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

  beforeAll(async () => {
    fixture = await openTransferTestApp(backend);
  });
  afterAll(async () => {
    await fixture.close();
  });

  it("refuses a URL without a signature with TOKEN_NOT_GIVEN", async () => {
    const key = await fixture.storedFile(body);
    const url = withQuery(fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" }), "sig", null);
    const response = await fixture.test.app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: "TOKEN_NOT_GIVEN" });
  });

  it("refuses an expired URL with TOKEN_HAS_EXPIRED once its lifetime has passed", async () => {
    const key = await fixture.storedFile(body);
    const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
    fixture.test.clock.advanceMinutes(14);
    expect((await fixture.test.app.inject({ method: "GET", url })).statusCode).toBe(200);
    fixture.test.clock.advanceMinutes(1);
    const response = await fixture.test.app.inject({ method: "GET", url });
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
    const key = await fixture.storedFile(body);
    const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
    const altered = alter(url, key);
    expect(altered).not.toBe(url);
    const method = altered.includes("method=PUT") ? "PUT" : "GET";
    const response = await fixture.test.app.inject({
      method,
      url: altered,
      payload: method === "PUT" ? "x" : undefined,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: "TOKEN_INVALID" });
  });

  it("refuses a traversal attempt in the file part of the path", async () => {
    const url = fixture.signer.sign({
      fileId: await fixture.storedFile(body),
      deviceId: DEVICE,
      method: "GET",
    });
    const query = url.slice(url.indexOf("?"));
    for (const path of [
      "/api/transfer/..%2F..%2Fetc%2Fpasswd",
      "/api/transfer/%2Fetc%2Fpasswd",
      "/api/transfer/a%5Cb",
    ]) {
      const response = await fixture.test.app.inject({ method: "GET", url: path + query });
      expect(response.json()).toMatchObject({ code: "TOKEN_INVALID" });
    }
  });

  it("refuses a URL used with another method than it grants with ACCESS_DENIED", async () => {
    const key = await fixture.storedFile(body);
    const download = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
    const put = await fixture.test.app.inject({ method: "PUT", url: download, payload: "overwrite" });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toMatchObject({ code: "ACCESS_DENIED" });
    expect((await fixture.test.storage.stat(key))?.size).toBe(100);
    const upload = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "PUT" });
    const get = await fixture.test.app.inject({ method: "GET", url: upload });
    expect(get.statusCode).toBe(403);
    expect(get.json()).toMatchObject({ code: "ACCESS_DENIED" });
  });

  it("refuses a URL signed for a file that is another device's with ACCESS_DENIED", async () => {
    const key = await fixture.storedFile(body);
    fixture.state.filesOfOtherDevices.add(key);
    const url = fixture.signer.sign({ fileId: key, deviceId: DEVICE, method: "GET" });
    const response = await fixture.test.app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: "ACCESS_DENIED" });
  });
});
