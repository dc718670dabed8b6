import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { TEST_USER } from "../../test/fixtures";
import { setLocale } from "../i18n";
import { clearInfoMessages, messageStore } from "../messages/messageStore";
import { sessionStore } from "../session/sessionStore";
import { apiDownload, apiStream } from "./http";

/** A response whose body arrives in the given chunks, split wherever the test likes. */
function chunked(chunks: string[], status = 200): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status, headers: { "Content-Type": "application/x-ndjson" } });
}

// A list header line: the smallest line the device list streams.
const Line = z.object({ total: z.number(), page: z.number(), size: z.number() });
const header = (n: number | string) => JSON.stringify({ total: n, page: 1, size: 100 });
const totalOf = (line: object) => ("total" in line ? line.total : null);

describe("apiStream", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => {
    clearInfoMessages();
    sessionStore.set(TEST_USER);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("hands over each line as it is completed, even when split across chunks", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        chunked([`${header(1)}\n${header(2).slice(0, 5)}`, `${header(2).slice(5)}\n`, header(3)]),
      ),
    );
    const lines: number[] = [];
    const count = await apiStream("POST /api/devices/", {
      body: {},
      schema: Line,
      onLine: (line) => lines.push(Number(totalOf(line))),
    });
    expect(lines).toEqual([1, 2, 3]);
    expect(count).toBe(3);
  });

  it("sends the token in header and body", async () => {
    const fetchMock = vi.fn(async () => chunked([]));
    vi.stubGlobal("fetch", fetchMock);
    await apiStream("POST /api/devices/", { body: { page: 1 }, onLine: () => undefined });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ Token: "tok-1" });
    expect(JSON.parse(String(init.body))).toEqual({ page: 1, token: "tok-1" });
  });

  it("handles a failed status like apiRequest: 401 logs out", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () => new Response(JSON.stringify({ code: "TOKEN_INVALID", message: "x" }), { status: 401 }),
      ),
    );
    await expect(apiStream("POST /api/devices/", { onLine: () => undefined })).rejects.toMatchObject({
      status: 401,
    });
    expect(sessionStore.get()).toBeNull();
  });

  it("turns an error line met mid-stream into an ApiError with its code, after the earlier lines", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => chunked([`${header(1)}\n{"code":"BAD_REQUEST","message":"boom"}\n`])),
    );
    const lines: number[] = [];
    await expect(
      apiStream("POST /api/devices/", { schema: Line, onLine: (line) => lines.push(Number(totalOf(line))) }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(lines).toEqual([1]);
    expect(messageStore.get()).toHaveLength(1);
  });

  it("rejects a line its schema refuses", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => chunked([`${header("x")}\n`])),
    );
    await expect(
      apiStream("POST /api/devices/", { schema: Line, onLine: () => undefined }),
    ).rejects.toBeInstanceOf(Error);
  });
});

describe("apiDownload", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => {
    clearInfoMessages();
    sessionStore.set(TEST_USER);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("saves the answer under the given name", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("ident\nR1\n", { headers: { "Content-Type": "text/csv" } })),
    );
    const createObjectURL = vi.fn(() => "blob:x");
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    await apiDownload("POST /api/devices/export", "devices.csv", { body: {} });
    expect(clicked).toEqual(["devices.csv"]);
    expect(await (createObjectURL.mock.calls[0] as unknown as [Blob])[0].text()).toBe("ident\nR1\n");
    click.mockRestore();
  });

  it("handles a refusal like any call", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ code: "BAD_REQUEST", message: "x" }), { status: 400 })),
    );
    await expect(apiDownload("POST /api/devices/export", "devices.csv")).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(messageStore.get()).toHaveLength(1);
  });
});
