// Files of the demo routers for the browser tests, made the way the console makes them: `backup` and
// `journal` commands to the simulated demo routers, which upload through the signed URLs the
// commands carry (issue 13). Nothing is written to the database or the storage behind the server.
import { type APIRequestContext, expect } from "@playwright/test";
import { apiToken, listRouters } from "./session";

/** The demo routers that get files. */
export const ROUTERS_WITH_FILES = ["SIM000001", "SIM000002"];

/**
 * What each of ROUTERS_WITH_FILES is asked to upload: a backup and a journal. (A second backup of
 * an unchanged configuration would be the same bytes, which the console keeps once, as a repeat.)
 */
const UPLOADS = ["backup", "journal"] as const;

/** The demo routers' ids by ident. */
async function routerIds(request: APIRequestContext, token: string): Promise<string[]> {
  const rows = await listRouters(request, token);
  return ROUTERS_WITH_FILES.map((ident) => {
    const row = rows.find((candidate) => candidate.ident === ident);
    expect(row?._id, ident).toBeTruthy();
    return row?._id as string;
  });
}

/**
 * Asks ROUTERS_WITH_FILES for a backup and a journal each (the server starts on a fresh
 * database, so once per run), and waits until every command completed: a router reports completed
 * only after its upload was stored.
 */
export async function takeDeviceFiles(request: APIRequestContext): Promise<void> {
  const token = await apiToken(request);
  const devices = await routerIds(request, token);
  for (const type of UPLOADS) {
    const created = await request.post("/api/command/new", {
      data: { token, type, targets: { devices, tags: [], all: false } },
    });
    expect(created.status(), await created.text()).toBe(200);
    const id = (await created.json())._id as string;
    await expect
      .poll(
        async () => {
          const command = await request.post(`/api/command/${id}`, { data: { token } });
          return (await command.json()).status as string;
        },
        { message: `the ${type} command`, timeout: 30_000 },
      )
      .toBe("completed");
  }
}

/**
 * The routers that have a backup now, by ident: ROUTERS_WITH_FILES, and any other a spec backed up
 * (schedules.spec.ts's rule backs up the routers of its tag), whichever ran first.
 */
export async function routersWithBackups(request: APIRequestContext): Promise<string[]> {
  const rows = await listRouters(request, await apiToken(request));
  return rows.filter((row) => row.has_backups).map((row) => row.ident as string);
}
