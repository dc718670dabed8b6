import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "./context";

/** What set-up leaves running: closed when the app closes, in reverse order of the module list. */
export interface ModuleRuntime {
  close(): Promise<void>;
}

/**
 * A feature as app.ts's module list holds it: its routes (inside the guarded /api scope) and its
 * set-up, which registers its jobs and fills the hooks it answers (platform/hooks.ts).
 */
export interface FeatureModule {
  /** The feature folder's name. */
  name: string;
  routes?: FastifyPluginAsyncZod<{ ctx: AppContext }>;
  // biome-ignore lint/suspicious/noConfusingVoidType: most set-ups leave nothing running
  setUp?(ctx: AppContext): void | ModuleRuntime;
}
