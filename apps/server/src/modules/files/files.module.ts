import type { FeatureModule } from "../../platform/feature-module";
import { registerFileJobs } from "./files.jobs";
import { filesRoutes } from "./files.routes";

/** Files: uploads, lists, downloads, deletes, and their jobs (the transfer hooks are wired in app.ts). */
export const filesModule: FeatureModule = { name: "files", routes: filesRoutes, setUp: registerFileJobs };
