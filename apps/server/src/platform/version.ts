import { readFileSync } from "node:fs";

function readVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  const { version } = JSON.parse(text) as { version?: unknown };
  return typeof version === "string" ? version : "0.0.0";
}

/** The server's version, from apps/server/package.json. */
export const SERVER_VERSION: string = readVersion();
