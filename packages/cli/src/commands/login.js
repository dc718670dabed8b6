import { createClient } from "../client.js";
import { writeConfig } from "../config.js";
import { CliError, EXIT } from "../exit-codes.js";
import { printJson } from "../output.js";

/**
 * Reads all of stdin (a token piped in, so it stays out of the shell's history).
 * @param {NodeJS.ReadableStream} stdin
 */
async function readAll(stdin) {
  let text = "";
  for await (const chunk of stdin) text += chunk.toString();
  return text.trim();
}

/**
 * `cellfleet login --url URL [--token TOKEN]`: checks the token against the console, then saves it
 * in the OS's config folder (mode 0600). A token that may not read its own account still works for
 * what it carries, so a 403 there saves it too; a 401 (unknown, revoked, expired) does not.
 * @param {import("../main.js").RunContext} context
 */
export async function login({ out, io, values }) {
  const url = typeof values.url === "string" ? values.url : io.env.CELLFLEET_URL;
  if (!url) throw new CliError(EXIT.USAGE, "Give the console's address: --url https://console.example");
  let token = typeof values.token === "string" ? values.token : io.env.CELLFLEET_TOKEN;
  if (!token && !io.stdin.isTTY) token = await readAll(io.stdin);
  if (!token) throw new CliError(EXIT.USAGE, "Give the token: --token, CELLFLEET_TOKEN, or on stdin");
  const client = createClient({ url, token });
  let username = null;
  try {
    const self = await client.post("/api/accounting/self", {});
    username = self.username;
  } catch (error) {
    if (!(error instanceof CliError) || error.exitCode !== EXIT.FORBIDDEN) throw error;
  }
  const file = await writeConfig(io.env, { url, token });
  if (out.isJson) printJson(out, { url, username, config: file });
  else out.stdout.write(`Signed in to ${url}${username ? ` as ${username}` : ""}; token saved in ${file}\n`);
  return EXIT.OK;
}
