import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

// Where `cellfleet login` keeps the console's address and the token: the OS's config folder,
// the file readable by its owner only (0600), its folder 0700.

/**
 * The config folder: CELLFLEET_CONFIG_DIR, else the OS's own (XDG on Linux, Application Support on
 * macOS, %APPDATA% on Windows).
 * @param {NodeJS.ProcessEnv} env
 */
export function configDir(env) {
  if (env.CELLFLEET_CONFIG_DIR) return env.CELLFLEET_CONFIG_DIR;
  if (process.platform === "win32")
    return join(env.APPDATA ?? join(homedir(), "AppData", "Roaming"), "cellfleet");
  if (process.platform === "darwin") return join(homedir(), "Library", "Application Support", "cellfleet");
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "cellfleet");
}

/** @typedef {{ url: string; token: string }} CliConfig */

/**
 * The saved address and token, or null before `login`. CELLFLEET_URL and CELLFLEET_TOKEN override it.
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<CliConfig | null>}
 */
export async function readConfig(env) {
  /** @type {Partial<CliConfig>} */
  let saved = {};
  try {
    saved = JSON.parse(await readFile(join(configDir(env), "config.json"), "utf8"));
  } catch {
    saved = {};
  }
  const url = env.CELLFLEET_URL ?? saved.url;
  const token = env.CELLFLEET_TOKEN ?? saved.token;
  return url && token ? { url, token } : null;
}

/**
 * Saves the address and token, readable by the owner only.
 * @param {NodeJS.ProcessEnv} env
 * @param {CliConfig} config
 * @returns {Promise<string>} the file's path
 */
export async function writeConfig(env, config) {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, "config.json");
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only to a new file; an older one is narrowed too.
  await chmod(file, 0o600);
  return file;
}
