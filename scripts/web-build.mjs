// `npm start` builds the web app only when its sources changed since the last build: a content hash
// of what the build reads is kept beside the built files (issue 27: every start rebuilt it, 104 s on
// a first start of a small machine). node scripts/web-build.mjs [--force]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** What the web build reads, relative to the repository: folders are read whole, tests left out. */
export const WEB_BUILD_INPUTS = [
  "apps/web/src",
  "apps/web/public",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "apps/web/tsconfig.json",
  "apps/web/package.json",
  "packages/contract/src",
  "packages/contract/package.json",
  "package-lock.json",
];

/** Where the hash of the sources the last build was made from is kept (the build empties dist/). */
export const STAMP_FILE = "apps/web/dist/.sources-sha256";

const isTestFile = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

async function filesUnder(root, path) {
  const entries = await readdir(join(root, path), { withFileTypes: true }).catch((error) => {
    if (error.code === "ENOTDIR") return null;
    if (error.code === "ENOENT") return [];
    throw error;
  });
  if (entries === null) return [path];
  const nested = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() || !isTestFile(entry.name))
      .map((entry) => filesUnder(root, join(path, entry.name))),
  );
  return nested.flat();
}

/** SHA-256 over the names and contents of every input, in a fixed order. */
export async function webSourcesHash(root) {
  const files = (await Promise.all(WEB_BUILD_INPUTS.map((input) => filesUnder(root, input)))).flat().sort();
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Whether dist/ was built from exactly these sources. */
export async function isWebBuildCurrent(root) {
  const stamp = await readFile(join(root, STAMP_FILE), "utf8").catch(() => null);
  return stamp !== null && stamp.trim() === (await webSourcesHash(root));
}

/** Builds the web app unless dist/ is current; returns whether it built. */
export async function buildWebIfChanged(root, { force = false, build = runViteBuild } = {}) {
  if (!force && (await isWebBuildCurrent(root))) return false;
  const hash = await webSourcesHash(root);
  build(root);
  await writeFile(join(root, STAMP_FILE), `${hash}\n`);
  return true;
}

function runViteBuild(root) {
  const result = spawnSync("npm", ["run", "build", "-w", "apps/web"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`the web build failed (exit ${result.status})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const built = await buildWebIfChanged(root, { force: process.argv.includes("--force") });
  if (!built) console.log(`web app up to date (${relative(root, join(root, STAMP_FILE))}); not rebuilt`);
}
