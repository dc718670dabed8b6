import type { ZeroTouchCheck } from "./device-auth";
import type { CommandStatusHook } from "./ingest.batch";

// What ingest asks of features above it while it takes routers in. The module that answers fills
// the hook in its set-up and names its type from here (which brings these declarations with it).

export type { CommandStatusHook, ZeroTouchCheck };

declare module "../../platform/hooks" {
  interface Hooks {
    /** Moves executions by routers' command statuses inside the batch's transaction (actions fills it). */
    "ingest.commandStatuses": CommandStatusHook;
    /** The CONNECT path for `zt1:` user names, embedded broker and broker HTTP hooks alike (zerotouch fills it). */
    "ingest.zeroTouch": ZeroTouchCheck;
  }
}
