import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { createPlatformSecrets } from "../secrets";
import { createTransferUrlSigner, MAX_TRANSFER_URL_LIFETIME_MS, TRANSFER_PATH_PREFIX } from "./signed-url";

const MINUTE = 60_000;
const start = new Date("2026-01-01T00:00:00Z");
const secrets = createPlatformSecrets(randomBytes(32));
const signer = createTransferUrlSigner(secrets, () => start, 15 * MINUTE);

function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, "http://x").searchParams);
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return "accepted";
}

describe("transfer URL signer", () => {
  it("signs file, device, method and expiry into a URL its verify accepts", () => {
    const url = signer.sign({ fileId: "f1", deviceId: "RUT-1", method: "PUT" });
    expect(url.startsWith(`${TRANSFER_PATH_PREFIX}/f1?`)).toBe(true);
    const query = queryOf(url);
    expect(query).toMatchObject({
      device: "RUT-1",
      method: "PUT",
      expires: String(start.getTime() + 15 * MINUTE),
    });
    expect(query.sig).toMatch(/^[0-9a-f]{64}$/);
    expect(signer.verify("f1", query, "PUT")).toEqual({
      fileId: "f1",
      deviceId: "RUT-1",
      method: "PUT",
      expiresAt: start.getTime() + 15 * MINUTE,
    });
  });

  it("accepts HEAD on a download URL", () => {
    const url = signer.sign({ fileId: "f1", deviceId: "RUT-1", method: "GET" });
    expect(refusal(() => signer.verify("f1", queryOf(url), "HEAD"))).toBe("accepted");
  });

  it("refuses a URL signed with another server's secret", () => {
    const foreign = createTransferUrlSigner(createPlatformSecrets(randomBytes(32)), () => start, 15 * MINUTE);
    const url = foreign.sign({ fileId: "f1", deviceId: "RUT-1", method: "GET" });
    expect(refusal(() => signer.verify("f1", queryOf(url), "GET"))).toBe("TOKEN_INVALID");
  });

  it("refuses a validly signed URL that would live longer than the maximum", () => {
    const later = createTransferUrlSigner(
      secrets,
      () => new Date(start.getTime() + 2 * MAX_TRANSFER_URL_LIFETIME_MS),
      MINUTE,
    );
    const farFuture = later.sign({ fileId: "f1", deviceId: "RUT-1", method: "GET" });
    expect(refusal(() => signer.verify("f1", queryOf(farFuture), "GET"))).toBe("TOKEN_INVALID");
  });

  it.each([
    ["a key that is no storage key", { fileId: "../x", deviceId: "RUT-1", method: "GET" as const }],
    ["a device id with a path in it", { fileId: "f1", deviceId: "a/b", method: "GET" as const }],
    [
      "an expiry in the past",
      { fileId: "f1", deviceId: "RUT-1", method: "GET" as const, expiresAt: start.getTime() },
    ],
    [
      "a lifetime over a day",
      {
        fileId: "f1",
        deviceId: "RUT-1",
        method: "GET" as const,
        expiresAt: start.getTime() + MAX_TRANSFER_URL_LIFETIME_MS + 1,
      },
    ],
  ])("will not sign %s", (_what, grant) => {
    expect(() => signer.sign(grant)).toThrow(RangeError);
  });
});
