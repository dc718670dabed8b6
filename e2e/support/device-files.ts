// Files of the demo routers for the browser tests. Routers upload backups and journals only when a
// command asks them to, and commands are not built yet (the actions issue), so no console screen can
// make one. The server's start stores what those uploads leave behind: the simulator's own backup
// and journal of the first demo routers (real sizes), under the storage the server uses, with rows
// as the files feature writes them. Everything after that is real: lists, facets, download, delete.
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import { filesRepo } from "../../apps/server/src/modules/files/files.repo";
import { seedDemoFleet } from "../../apps/server/src/modules/setup/demo-fleet";
import type { DB } from "../../apps/server/src/platform/db/schema";
import { createLocalFileStorage } from "../../apps/server/src/platform/storage/local-storage";
import { createRouterState, Random, routerBackup, routerJournal } from "../../apps/simulator/src/index";

/** The demo routers that get files. */
export const ROUTERS_WITH_FILES = ["SIM000001", "SIM000002"];

/** Seeds two backups and a journal for each of ROUTERS_WITH_FILES (once: a router with files is skipped). */
export async function seedDeviceFiles(db: Kysely<DB>, dataDir: string, fleetSize: number): Promise<void> {
  await seedDemoFleet(db, fleetSize);
  const storage = createLocalFileStorage(path.join(dataDir, "files"));
  const now = Date.now();
  for (const ident of ROUTERS_WITH_FILES) {
    const device = await db
      .selectFrom("devices")
      .select(["id", "domain_id"])
      .where("ident", "=", ident)
      .executeTakeFirst();
    if (!device) continue;
    const repo = filesRepo(db);
    if ((await repo.listDeviceFiles(device.domain_id, device.id, {})).length > 0) continue;
    const state = createRouterState(ident, new Random(ident), now - 86_400_000);
    const copies: { kind: "backup" | "journal"; bytes: Uint8Array; at: number }[] = [
      {
        kind: "backup",
        bytes: routerBackup({ ...state, firmware: `${state.firmware}-old` }),
        at: now - 2 * 86_400_000,
      },
      { kind: "backup", bytes: routerBackup(state), at: now - 86_400_000 },
      { kind: "journal", bytes: routerJournal(state, now - 3_600_000), at: now - 3_600_000 },
    ];
    for (const copy of copies) {
      const id = randomUUID();
      const stored = await storage.put(id, Readable.from([Buffer.from(copy.bytes)]));
      const stamp = new Date(copy.at).toISOString().slice(0, 10).replaceAll("-", "");
      await repo.insertFile(device.domain_id, {
        id,
        file_type: copy.kind,
        filename: `${copy.kind}-${ident}-${stamp}.${copy.kind === "backup" ? "tar.gz" : "log"}`,
        size: stored.size,
        sha256: stored.sha256,
        status: "completed",
        user_id: null,
        device_id: device.id,
        command_id: `seed-${createHash("sha1").update(id).digest("hex").slice(0, 8)}`,
        execution_id: randomUUID(),
        create_time: new Date(copy.at),
      });
    }
    await repo.refreshDeviceFileFlags(device.domain_id, [device.id]);
  }
}
