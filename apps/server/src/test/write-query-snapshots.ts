import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAllRepoFunctions, SNAPSHOT_DIR, snapshotName, snapshotText } from "./repo-queries";

// `npm run queries -w apps/server`: writes src/queries/<repo>.sql from the repos' code, and removes
// the snapshots of repos that are gone. The architecture test fails while they differ.
const runsByFile = await runAllRepoFunctions();
mkdirSync(SNAPSHOT_DIR, { recursive: true });
const written = new Set<string>();
for (const [file, runs] of runsByFile) {
  const name = snapshotName(file);
  written.add(name);
  writeFileSync(join(SNAPSHOT_DIR, name), snapshotText(file, runs));
}
for (const name of readdirSync(SNAPSHOT_DIR)) if (!written.has(name)) rmSync(join(SNAPSHOT_DIR, name));
console.log(`wrote ${written.size} snapshots to ${SNAPSHOT_DIR}`);
