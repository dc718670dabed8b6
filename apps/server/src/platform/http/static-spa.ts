import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { sendError } from "../errors";

/** apps/web/dist, found from this file's place in the repository rather than from the cwd. */
export const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL("../../../../web/dist/", import.meta.url));

const NOT_BUILT_TEXT =
  "Cellfleet: the web app is not built yet.\n\nRun `npm run build` in the repository root, then restart the server.\n" +
  "The API is available under /api (see /api/docs).\n";

function isApiPath(url: string): boolean {
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
}

/** A path whose last segment has an extension names a file; a missing file is a 404, not the app. */
function looksLikeFile(url: string): boolean {
  const path = url.split("?")[0] ?? "";
  return /\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * Serves the built web app: files as they are (hashed assets cached for a year, index.html never),
 * and index.html for any other GET outside /api, so client routes like /dashboard load the app.
 * Unknown /api paths answer 404 NOT_FOUND as JSON.
 */
export async function registerStaticSpa(app: FastifyInstance, distDir: string): Promise<void> {
  const isBuilt = existsSync(`${distDir}/index.html`);
  if (isBuilt) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Looked up per request, so a rebuild of the web app is served without a restart.
      wildcard: true,
      index: ["index.html"],
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const isHashedAsset = /[\\/]assets[\\/]/.test(filePath);
        reply.header("cache-control", isHashedAsset ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPageRequest = request.method === "GET" || request.method === "HEAD";
    if (isApiPath(request.url) || !isPageRequest || looksLikeFile(request.url)) {
      return sendError(
        reply,
        { code: "OPERATION_IS_NOT_SUPPORTED", message: `Route ${request.method} ${request.url} not found` },
        404,
      );
    }
    if (!isBuilt) {
      return reply
        .code(503)
        .type("text/plain; charset=utf-8")
        .header("cache-control", "no-cache")
        .send(NOT_BUILT_TEXT);
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}
