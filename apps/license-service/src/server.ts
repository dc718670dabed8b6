import type { KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { LicenseActivationRequestSchema } from "@cellfleet/contract";
import { decideActivation } from "./activate";
import { publicKeyBase64, signLicense } from "./signing";
import type { KeyStore } from "./store";

/** Activation bodies are two hex strings: anything much larger is refused unread. */
const MAX_BODY_BYTES = 4096;

export interface LicenseServerDeps {
  store: KeyStore;
  privateKey: KeyObject;
  now?: () => Date;
  /** Where failures are told (defaults to stderr). */
  logError?: (message: string, error: unknown) => void;
}

/**
 * The service's HTTP side:
 * - `POST /v1/activate` `{key, fingerprint}` → 200 a signed licence document (for a ban, an expiry
 *   or an unknown key too: the status inside says so), 400 a malformed request;
 * - `GET /v1/public-key` → the public key consoles configure; `GET /v1/health` → `{ok: true}`.
 */
export function createLicenseServer(deps: LicenseServerDeps): Server {
  const now = deps.now ?? (() => new Date());
  const logError = deps.logError ?? ((message, error) => console.error(message, error));
  const publicKey = publicKeyBase64(deps.privateKey);
  return createServer((request, response) => {
    route(request, response).catch((error) => {
      logError("licence request failed", error);
      if (!response.headersSent) answer(response, 500, { error: "internal" });
      else response.destroy();
    });
  });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (request.method === "GET" && path === "/v1/health") return answer(response, 200, { ok: true });
    if (request.method === "GET" && path === "/v1/public-key") return answer(response, 200, { publicKey });
    if (path !== "/v1/activate") return answer(response, 404, { error: "not_found" });
    if (request.method !== "POST") return answer(response, 405, { error: "method_not_allowed" });
    const body = await readBody(request);
    if (body === null) return answer(response, 413, { error: "too_large" });
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return answer(response, 400, { error: "bad_json" });
    }
    const parsed = LicenseActivationRequestSchema.safeParse(json);
    if (!parsed.success) return answer(response, 400, { error: "bad_request" });
    const payload = await deps.store.update((file) => decideActivation(file, parsed.data, now()));
    return answer(response, 200, signLicense(payload, deps.privateKey));
  }
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  response.end(text);
}
