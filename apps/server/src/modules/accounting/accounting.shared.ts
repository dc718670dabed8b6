import { REAUTH_WINDOW_MINUTES } from "@cellfleet/contract";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { sessionsRepo } from "../auth/sessions.repo";
import { findEffectivePolicy } from "../policies/policies.service";

/** Whether a read-or-change body carries a change: any field but the token. */
export function hasFields(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === "object" &&
    Object.keys(body as Record<string, unknown>).some((key) => key !== "token")
  );
}

/** `saves` for routes that read with an empty body and change with fields. */
export function savesWhenFields(request: FastifyRequest): boolean {
  return hasFields(request.body);
}

/** The path parameter of a user page. */
export const UserIdParamsSchema = z.object({ userId: z.string().min(1).max(64) });
/** The path parameter of a domain page. */
export const DomainIdParamsSchema = z.object({ domainId: z.string().min(1).max(64) });

/**
 * A preHandler: with the policy's re-authentication on, a session may save accounting changes only
 * within REAUTH_WINDOW_MINUTES of signing in; later saves answer REAUTH (401), and the web signs the
 * person in again.
 */
export function createReauthCheck(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const session = request.session;
    const saves = request.routeOptions.config.saves;
    if (!session || !saves || (typeof saves === "function" && !saves(request))) return;
    const policy = await findEffectivePolicy(ctx.db, session.user);
    if (!policy.reauthentication) return;
    const row = await sessionsRepo(ctx.db).findSessionByTokenHashAcrossDomains(hashToken(session.token));
    if (!row) return;
    if (ctx.now().getTime() - row.create_time.getTime() > REAUTH_WINDOW_MINUTES * 60_000) {
      throw new AppError("REAUTH", "Sign in again to save this change");
    }
  };
}
