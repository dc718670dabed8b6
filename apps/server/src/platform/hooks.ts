// A module asks something of a module above it through a hook, never by importing it (no module
// imports one above it: docs/ARCHITECTURE.md). The asking side declares the hook's type by merging
// it into `Hooks`; the answering module fills it once, in its setUp (app.ts's module list):
//
//   declare module "../../platform/hooks" { // in devices.service.ts, which calls it
//     interface Hooks { "devices.deviceRoom": (trx: Kysely<DB>, adding: number) => Promise<void> }
//   }
//   ctx.hooks.fill("devices.deviceRoom", (trx, adding) => assertLicensedDeviceRoom(ctx, trx, adding)); // licences' setUp
//   await ctx.hooks.get("devices.deviceRoom")(trx, candidates.length); // devices' service

import type { SessionContext } from "./auth/session-guard";

/** Every hook by name; modules merge theirs in (see the file's head). */
export interface Hooks {
  /** The re-authentication rule the session guard runs on routes flagged `asksRecentSignIn` (auth fills it). */
  "auth.recentSignIn": (session: SessionContext) => Promise<void>;
}

/** The hooks of one app: filled at set-up, read by services at call time. */
export interface HookRegistry {
  /** Fills a hook; each is filled once. */
  fill<K extends keyof Hooks>(name: K, hook: Hooks[K]): void;
  /** The filled hook; throws when no module filled it (a set-up mistake, not a runtime state). */
  get<K extends keyof Hooks>(name: K): Hooks[K];
}

/** An empty registry. */
export function createHookRegistry(): HookRegistry {
  const filled = new Map<keyof Hooks, unknown>();
  return {
    fill(name, hook) {
      if (filled.has(name)) throw new Error(`The hook ${name} is filled twice`);
      filled.set(name, hook);
    },
    get<K extends keyof Hooks>(name: K): Hooks[K] {
      const hook = filled.get(name);
      if (hook === undefined) throw new Error(`No module filled the hook ${name}`);
      return hook as Hooks[K];
    },
  };
}
