import { errorText, noticeText } from "@cellfleet/contract";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { TEST_USER } from "../../test/fixtures";
import { setLocale } from "../i18n";
import { clearInfoMessages, messageStore } from "../messages/messageStore";
import { sessionStore } from "../session/sessionStore";
import { ApiError } from "./ApiError";
import { apiRequest } from "./http";

function answer(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status }));
}

const shown = () => messageStore.get().map((message) => ({ level: message.level, text: message.text }));

describe("apiRequest", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => {
    clearInfoMessages();
    sessionStore.set(TEST_USER);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("sends the token in the header on GET, and in header and body on other methods", async () => {
    const fetchMock = answer(200, { ok: true });
    vi.stubGlobal("fetch", fetchMock);
    await apiRequest("GET /api/health");
    await apiRequest("POST /api/profile", { body: { full_name: "A" } });
    const [getCall, postCall] = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(getCall[1].headers).toMatchObject({ Token: "tok-1" });
    expect(getCall[1].body).toBeUndefined();
    expect(postCall[1].headers).toMatchObject({ Token: "tok-1" });
    expect(JSON.parse(String(postCall[1].body))).toEqual({ full_name: "A", token: "tok-1" });
  });

  it("logs out on 401 and shows the code's text", async () => {
    vi.stubGlobal("fetch", answer(401, { code: "TOKEN_HAS_EXPIRED", message: "expired" }));
    await expect(apiRequest("POST /api/profile")).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get()).toBeNull();
    expect(shown()).toEqual([{ level: "critical", text: errorText("TOKEN_HAS_EXPIRED", "en") }]);
  });

  it("keeps the session on 403 DEMO_PERMISSIONS_DENIED and says saving is unavailable", async () => {
    vi.stubGlobal("fetch", answer(403, { code: "DEMO_PERMISSIONS_DENIED", message: "demo" }));
    await expect(apiRequest("POST /api/profile", { body: { full_name: "X" } })).rejects.toMatchObject({
      status: 403,
      code: "DEMO_PERMISSIONS_DENIED",
    });
    expect(sessionStore.get()).not.toBeNull();
    expect(shown()).toEqual([{ level: "warning", text: errorText("DEMO_PERMISSIONS_DENIED", "en") }]);
  });

  it("logs out on 403 USER_BLOCKED", async () => {
    vi.stubGlobal("fetch", answer(403, { code: "USER_BLOCKED", message: "blocked" }));
    await expect(apiRequest("POST /api/profile")).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get()).toBeNull();
  });

  it("frames a 500 as a server connection error", async () => {
    vi.stubGlobal("fetch", answer(500, { code: "WRITE_DATA_FAILED", message: "boom" }));
    await expect(apiRequest("POST /api/profile")).rejects.toBeInstanceOf(ApiError);
    const text = noticeText("serverConnectionError", "en", { text: errorText("WRITE_DATA_FAILED", "en") });
    expect(shown()).toEqual([{ level: "warning", text }]);
    expect(sessionStore.get()).not.toBeNull();
  });

  it("frames other statuses as a server error with the path", async () => {
    vi.stubGlobal("fetch", answer(409, { code: "FILE_EXISTS", message: "nope" }));
    await expect(apiRequest("DELETE /api/file/{fileId}", { params: { fileId: "1" } })).rejects.toBeInstanceOf(
      ApiError,
    );
    const text = noticeText("serverErrorAt", "en", {
      path: "/api/file/1",
      text: errorText("FILE_EXISTS", "en"),
    });
    expect(shown()).toEqual([{ level: "warning", text }]);
  });

  it("says a missing object by its text alone, and leaves a query's read of it to the page", async () => {
    vi.stubGlobal("fetch", answer(404, { code: "DEVICE_NOT_FOUND", message: "nope" }));
    await expect(
      apiRequest("DELETE /api/device/{dev_id}", { params: { dev_id: "1" } }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(shown()).toEqual([{ level: "warning", text: errorText("DEVICE_NOT_FOUND", "en") }]);
    await expect(
      apiRequest("POST /api/device/{dev_id}", {
        params: { dev_id: "1" },
        signal: new AbortController().signal,
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(shown()).toHaveLength(1);
  });

  it("leaves the message to the caller when quiet, but still logs out a dead session", async () => {
    vi.stubGlobal("fetch", answer(400, { code: "PASSWORD_INVALID", message: "bad" }));
    await expect(apiRequest("POST /api/profile", { quiet: true })).rejects.toBeInstanceOf(ApiError);
    expect(shown()).toEqual([]);
    vi.stubGlobal("fetch", answer(401, { code: "TOKEN_INVALID", message: "bad" }));
    await expect(apiRequest("POST /api/profile", { quiet: true })).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get()).toBeNull();
    expect(shown()).toEqual([]);
  });

  it("reports an unreachable server as a communication error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(apiRequest("POST /api/profile")).rejects.toMatchObject({ status: 0 });
    expect(shown()).toEqual([{ level: "warning", text: noticeText("serverCommunicationError", "en") }]);
  });
});
