import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../platform/context";
import { assertRecentSignIn } from "../auth/session.service";

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
 * A preHandler: a call that saves goes through the session service's re-authentication rule
 * (assertRecentSignIn); calls that only read pass.
 */
export function createReauthCheck(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const session = request.session;
    const saves = request.routeOptions.config.saves;
    if (!session || !saves || (typeof saves === "function" && !saves(request))) return;
    await assertRecentSignIn(ctx, session);
  };
}
