import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { trickleBody } from "../../test/test-streams";
import { dropRestOfBody } from "./refused-body";

let server: http.Server | null = null;
afterEach(async () => {
  const open = server;
  server = null;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** A server that refuses every request at once, before reading its body. */
async function refusingServer(lingerMs: number): Promise<string> {
  server = http.createServer((request, response) => {
    dropRestOfBody(request, response, lingerMs);
    response.writeHead(413, { "content-type": "application/json" }).end('{"code":"BAD_REQUEST"}');
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/`;
}

/** Sends a chunked body a piece every 2 ms until `stopAfter` bytes (or for ever); answers what came back. */
function upload(url: string, stopAfter = Number.POSITIVE_INFINITY) {
  return new Promise<{ status: number; closedAfterMs: number | null }>((resolve, reject) => {
    let status = 0;
    let answeredAt = 0;
    const request = http.request(
      url,
      { method: "PUT", headers: { "transfer-encoding": "chunked" } },
      (response) => {
        status = response.statusCode ?? 0;
        answeredAt = Date.now();
        response.resume();
        if (stopAfter !== Number.POSITIVE_INFINITY)
          response.on("end", () => resolve({ status, closedAfterMs: null }));
      },
    );
    const timer = trickleBody(request, { everyMs: 2, stopAfter });
    request.on("error", (error) => {
      clearInterval(timer);
      if (status === 0) reject(error);
    });
    // A sender that never stops is cut off once the answer has had its time.
    request.on("close", () => {
      clearInterval(timer);
      if (status !== 0) resolve({ status, closedAfterMs: Date.now() - answeredAt });
    });
  });
}

describe("dropRestOfBody", () => {
  it("lets a sender still writing read the refusal, then finish on the same connection", async () => {
    const url = await refusingServer(2_000);
    expect(await upload(url, 32 * 1024)).toEqual({ status: 413, closedAfterMs: null });
  });

  it("closes the connection of a sender that does not stop, once the linger is over", async () => {
    const url = await refusingServer(300);
    const answer = await upload(url);
    expect(answer.status).toBe(413);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(answer.closedAfterMs).toBeLessThan(5_000);
  });

  it("ends an injected request (no connection of its own) the same way, without throwing", async () => {
    const app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    let destroyed: Promise<void> = Promise.resolve();
    app.put("/", (request, reply) => {
      destroyed = new Promise((resolve) => request.raw.once("close", () => resolve()));
      dropRestOfBody(request.raw, reply.raw, 50);
      return reply.code(413).send({ code: "BAD_REQUEST" });
    });
    // A body that never ends.
    const body = new PassThrough();
    body.write(Buffer.alloc(512, 1));
    const response = await app.inject({
      method: "PUT",
      url: "/",
      payload: body,
      headers: { "content-type": "x/y" },
    });
    expect(response.statusCode).toBe(413);
    await destroyed;
    await app.close();
  });
});
