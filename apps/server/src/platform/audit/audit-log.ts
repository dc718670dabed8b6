import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { auditRepo } from "./audit.repo";
import { auditActionName, sanitizeAuditInfo } from "./sanitize";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Record the call in the audit log even though it does not save (sign-in, sign-out). */
    audited?: boolean;
  }
  interface FastifyRequest {
    /** Who acted, for calls without a session (registration, password reset); set by the handler. */
    auditActor?: { id: string | null; username: string; domainId?: string | null };
  }
  interface FastifyInstance {
    /** The audit log of web actions (see platform/audit). */
    auditLog: AuditLog;
  }
}

/** The audit log writer: entries are written after the answer is sent; `settle` waits for them. */
export interface AuditLog {
  /** Adds the recording hook to a scope; every route of it (and its children) is covered. */
  install(scope: FastifyInstance): void;
  /** Resolves once every entry started so far is in the database (tests, shutdown). */
  settle(): Promise<void>;
}

function shouldAudit(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (config.audited) return true;
  const saves = config.saves;
  if (typeof saves === "function") {
    try {
      return saves(request);
    } catch {
      return true;
    }
  }
  return saves === true;
}

/** The author named in the body of a call without a session (sign-in, forgot password). */
function bodyAuthor(body: unknown): string | null {
  if (body === null || typeof body !== "object") return null;
  const record = body as Record<string, unknown>;
  for (const key of ["username", "login", "email"]) {
    if (typeof record[key] === "string" && record[key].trim()) return record[key].trim();
  }
  return null;
}

/**
 * Records every call of the scope whose route config `saves` (true, or its function says so for
 * this request) or is `audited`, in an onResponse hook: the entry is written after the answer has
 * gone out, so it never slows the call; a failed write is logged, never answered. Calls refused
 * for want of a session (401 before a session exists) are not recorded: nobody acted, and logging
 * them would let anyone fill the log.
 */
export function createAuditLog(ctx: AppContext): AuditLog {
  const pending = new Set<Promise<void>>();

  async function write(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = request.session;
    const status = reply.statusCode < 400 ? "SUCCESS" : "FAILURE";
    let actor: { id: string | null; username: string; domainId: string | null } | null = session
      ? { id: session.user.id, username: session.user.username, domainId: session.domainId }
      : null;
    if (!actor) {
      const named = request.auditActor?.username ?? bodyAuthor(request.body);
      if (!named || !request.routeOptions.config.isPublic) return;
      const known = request.auditActor?.domainId;
      const found =
        known === undefined ? await auditRepo(ctx.db).findAuthorByUsernameAcrossDomains(named) : undefined;
      actor = {
        id: request.auditActor?.id ?? found?.id ?? null,
        username: named,
        domainId: known ?? found?.domain_id ?? null,
      };
    }
    await auditRepo(ctx.db).insertWebAction(actor.domainId, {
      authorId: actor.id,
      author: actor.username,
      action: auditActionName(request.method, request.routeOptions.url ?? request.url),
      status,
      createTime: ctx.now(),
      clientIp: request.ip ?? null,
      info: sanitizeAuditInfo(request.body),
    });
  }

  return {
    install(scope) {
      scope.addHook("onResponse", async (request, reply) => {
        if (!shouldAudit(request)) return;
        const job: Promise<void> = write(request, reply)
          .catch((error: unknown) => request.log.error({ err: error }, "audit log entry not written"))
          .finally(() => pending.delete(job));
        pending.add(job);
      });
    },
    async settle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
