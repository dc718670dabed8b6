import type { SessionUser } from "@cellfleet/contract";
import type { z } from "zod";

/**
 * The contract's SessionUserSchema, fetched on first use: the session is read at start-up on every
 * page, /login included, and a static import would put zod (≈26 kB gz) into the first bundle (ADR 018).
 */
export function loadSessionUserSchema(): Promise<z.ZodType<SessionUser>> {
  return import("./sessionUserSchema").then((module) => module.SessionUserSchema);
}
