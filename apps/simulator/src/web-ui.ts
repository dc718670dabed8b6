import { randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";

// The simulated router's own web interface, reached through a web session's forward (ADR 038):
// a sign-in form that sets a login cookie (as LuCI's `sysauth` does), a status page that needs it,
// and a download of any size (the benchmark's). Its Set-Cookie names a Domain of the router's own,
// which the console's proxy must drop for the cookie to work on the session's origin.

/** The simulated router's web password (user `root`). */
export const WEB_UI_PASSWORD = "admin";

/** The login cookie's name. */
export const WEB_UI_COOKIE = "sysauth";

/** The largest download the page serves: 64 MiB. */
const MAX_DOWNLOAD = 64 * 1024 * 1024;

export interface WebUiRouter {
  ident: string;
  model: string;
  firmware: string;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${title}</title><style>body{font-family:sans-serif;margin:2rem;max-width:40rem}` +
  `label{display:block;margin:.5rem 0}</style></head><body>${body}</body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function cookieOf(request: IncomingMessage): string | null {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === WEB_UI_COOKIE && value) return value;
  }
  return null;
}

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      if (body.length < 4096) body += chunk.toString("utf8");
    });
    request.on("end", () => resolve(new URLSearchParams(body)));
  });
}

function sendDownload(response: ServerResponse, size: number): void {
  response.writeHead(200, { "content-type": "application/octet-stream", "content-length": size });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let left = size;
  const pump = () => {
    while (left > 0) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= part.length;
      if (!response.write(part)) return void response.once("drain", pump);
    }
    response.end();
  };
  pump();
}

/** The router's web server: one per router, fed the connections of its web sessions' forward. */
export function createWebUi(router: WebUiRouter): http.Server {
  const sessions = new Set<string>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://router");
    const html = (status: number, body: string, headers: http.OutgoingHttpHeaders = {}) => {
      response.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
      response.end(body);
    };
    if (url.pathname === "/download") {
      return sendDownload(response, Math.min(Number(url.searchParams.get("bytes")) || 0, MAX_DOWNLOAD));
    }
    if (url.pathname === "/cookies") {
      response.writeHead(200, { "content-type": "text/plain" });
      return void response.end(request.headers.cookie ?? "");
    }
    if (url.pathname === "/login" && request.method === "POST") {
      return void readForm(request).then((form) => {
        if (form.get("username") !== "root" || form.get("password") !== WEB_UI_PASSWORD) {
          return html(403, page("Sign in", `<p role="alert">Wrong password</p><a href="/login">Again</a>`));
        }
        const id = randomBytes(16).toString("hex");
        sessions.add(id);
        html(303, "", {
          location: "/",
          "set-cookie": `${WEB_UI_COOKIE}=${id}; Domain=router.lan; Path=/; HttpOnly; SameSite=Strict`,
        });
      });
    }
    if (url.pathname === "/login") {
      return html(
        200,
        page(
          `${router.model} — sign in`,
          `<h1>${escapeHtml(router.model)}</h1><form method="post" action="/login">` +
            `<label>Username <input name="username" value="root"></label>` +
            `<label>Password <input name="password" type="password"></label>` +
            `<button type="submit">Sign in</button></form>`,
        ),
      );
    }
    const cookie = cookieOf(request);
    if (cookie === null || !sessions.has(cookie)) return html(302, "", { location: "/login" });
    html(
      200,
      page(
        `${router.model} — status`,
        `<h1>Status</h1><dl><dt>Router</dt><dd id="ident">${escapeHtml(router.ident)}</dd>` +
          `<dt>Model</dt><dd>${escapeHtml(router.model)}</dd>` +
          `<dt>Firmware</dt><dd>${escapeHtml(router.firmware)}</dd></dl><p>Signed in as root.</p>`,
      ),
    );
  });
  // `/echo` upgrades and sends back every byte it gets, as a live page's socket would answer (the
  // proxy's upgrade path is tested on it).
  server.on("upgrade", (request, socket) => {
    if (request.url !== "/echo") return void socket.destroy();
    socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n");
    socket.pipe(socket);
  });
  return server;
}
