import { join } from "node:path";
import { renderCliTypes as renderTypesOf } from "../../../../packages/cli/scripts/render-types";
import { createTestApp } from "./test-app";

/** The command-line tool's types, generated from the OpenAPI description the server serves. */
export const CLI_TYPES_FILE = join(import.meta.dirname, "../../../../packages/cli/src/api.d.ts");

/** Builds the app, reads its /api/docs/json and answers the TypeScript text of its paths and schemas. */
export async function renderCliTypes(): Promise<string> {
  const t = await createTestApp({ seed: false, runJobs: false });
  try {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    if (response.statusCode !== 200) throw new Error(`/api/docs/json answered ${response.statusCode}`);
    return await renderTypesOf(response.json());
  } finally {
    await t.close();
  }
}
