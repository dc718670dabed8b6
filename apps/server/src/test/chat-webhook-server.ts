import http from "node:http";
import type { AddressInfo } from "node:net";

// A loopback chat server taking incoming webhooks as Slack, Mattermost and Rocket.Chat do: a JSON
// POST to a secret path, answered 200 "ok" (Slack, Mattermost) or `{ "success": true }`
// (Rocket.Chat). Tests make it refuse (Slack's plain-text errors, Mattermost's error JSON) or
// flood-limit (429 with Retry-After) to see what the provider does.

/** A post the server received. */
export interface WebhookPost {
  path: string;
  body: Record<string, unknown>;
  at: number;
}

/** The fake chat server. */
export interface ChatWebhookServer {
  /** http://127.0.0.1:<port>: append /hooks/<key> for a webhook URL. */
  url: string;
  posts: WebhookPost[];
  /** The next `count` posts answer this status, body and headers. */
  failNext(status: number, body: string, headers?: Record<string, string>, count?: number): void;
  waitForPosts(count: number, timeoutMs?: number): Promise<WebhookPost[]>;
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port. */
export async function startChatWebhookServer(): Promise<ChatWebhookServer> {
  const posts: WebhookPost[] = [];
  let failure: { status: number; body: string; headers: Record<string, string>; count: number } | null = null;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (failure && failure.count > 0) {
        failure.count -= 1;
        response.writeHead(failure.status, { "Content-Type": "text/plain", ...failure.headers });
        response.end(failure.body);
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        response.writeHead(400, { "Content-Type": "text/plain" });
        response.end("invalid_payload");
        return;
      }
      const path = request.url ?? "";
      posts.push({ path, body, at: Date.now() });
      if (path.includes("rocket")) {
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end('{"success":true}');
      } else {
        response.writeHead(200, { "Content-Type": "text/plain" });
        response.end("ok");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    failNext(status, body, headers = {}, count = 1) {
      failure = { status, body, headers, count };
    },
    async waitForPosts(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (posts.length < count) {
        if (Date.now() > deadline) throw new Error(`${posts.length} of ${count} webhook posts arrived`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return posts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
