import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { CliError, EXIT, exitCodeOfStatus } from "./exit-codes.js";

// The console's API as this tool calls it: `Authorization: Bearer <token>` on every call (ADR 040),
// JSON answers typed from the server's OpenAPI description (src/api.d.ts, generated and checked in;
// apps/server's openapi-cli-types test fails when it drifts).

/** @typedef {import("./api").paths} Paths */
/**
 * The JSON answer of `POST path`, as the OpenAPI description says.
 * @template {keyof Paths} P
 * @typedef {Paths[P] extends { post: { responses: { 200: { content: { "application/json": infer A } } } } } ? A : never} PostAnswer
 */
/**
 * The JSON body of `POST path`.
 * @template {keyof Paths} P
 * @typedef {Paths[P] extends { post: { requestBody?: { content: { "application/json": infer B } } } } ? NonNullable<B> : never} PostBody
 */

/**
 * @param {Response} response
 */
async function failureOf(response) {
  let code;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = /** @type {{ code?: string; message?: string }} */ (await response.json());
    code = body.code;
    if (body.message) message = body.code ? `${body.code}: ${body.message}` : body.message;
  } catch {
    // Not JSON: the status line says enough.
  }
  return new CliError(exitCodeOfStatus(response.status), message, code);
}

/**
 * A client of one console with one token.
 * @param {{ url: string; token: string }} config
 */
export function createClient(config) {
  const base = config.url.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${config.token}` };

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   */
  async function send(method, path, body) {
    let response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = /** @type {{ cause?: { code?: string } }} */ (error).cause?.code ?? String(error);
      throw new CliError(EXIT.UNAVAILABLE, `Cannot reach ${base}: ${cause}`);
    }
    if (!response.ok) throw await failureOf(response);
    return response;
  }

  return {
    /**
     * POST a JSON body, answer the JSON the description promises.
     * @template {keyof Paths} P
     * @param {P} path the path as the description names it
     * @param {Record<string, string>} params its `{name}` parts
     * @param {PostBody<P> | Record<string, never>} [body]
     * @returns {Promise<PostAnswer<P>>}
     */
    async post(path, params, body = {}) {
      const url = String(path).replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(params[name] ?? ""));
      return /** @type {Promise<PostAnswer<P>>} */ ((await send("POST", url, body)).json());
    },

    /**
     * POST, answer the lines of a newline-delimited JSON answer.
     * @param {string} path
     * @param {unknown} body
     * @returns {Promise<unknown[]>}
     */
    async postLines(path, body) {
      const text = await (await send("POST", path, body)).text();
      return text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line));
    },

    /**
     * POST, answer the text (a CSV export).
     * @param {string} path
     * @param {unknown} body
     */
    async postText(path, body) {
      return (await send("POST", path, body)).text();
    },

    /**
     * Uploads a file as multipart field `file`, reporting bytes sent; answers the parsed JSON.
     * @param {string} path
     * @param {{ name: string; bytes: Buffer }} file
     * @param {(sent: number, total: number) => void} onProgress
     * @returns {Promise<unknown>}
     */
    upload(path, file, onProgress) {
      const boundary = `----cellfleet${Date.now().toString(16)}`;
      const safeName = file.name.replace(/["\r\n]/g, "_");
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const total = head.length + file.bytes.length + tail.length;
      const target = new URL(`${base}${path}`);
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      return new Promise((resolve, reject) => {
        const req = send(
          target,
          {
            method: "POST",
            headers: {
              ...headers,
              "content-type": `multipart/form-data; boundary=${boundary}`,
              "content-length": String(total),
            },
          },
          (res) => {
            const chunks = /** @type {Buffer[]} */ ([]);
            res.on("data", (chunk) => chunks.push(chunk));
            res.on("end", () => {
              const text = Buffer.concat(chunks).toString("utf8");
              let body;
              try {
                body = JSON.parse(text);
              } catch {
                body = {};
              }
              const status = res.statusCode ?? 500;
              if (status >= 400) {
                const message = body.code ? `${body.code}: ${body.message ?? ""}` : `${status}`;
                reject(new CliError(exitCodeOfStatus(status), message, body.code));
              } else resolve(body);
            });
          },
        );
        req.on("error", (error) =>
          reject(new CliError(EXIT.UNAVAILABLE, `Cannot reach ${base}: ${error.message}`)),
        );
        let sent = 0;
        const write = (/** @type {Buffer} */ part) => {
          req.write(part);
          sent += part.length;
          onProgress(sent, total);
        };
        write(head);
        const CHUNK = 64 * 1024;
        for (let offset = 0; offset < file.bytes.length; offset += CHUNK) {
          write(file.bytes.subarray(offset, offset + CHUNK));
        }
        write(tail);
        req.end();
      });
    },
  };
}

/** @typedef {ReturnType<typeof createClient>} Client */
