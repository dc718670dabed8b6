import { AUDIT_ROUTES, type AuditObject } from "@cellfleet/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { Kysely } from "kysely";
import type { AppContext } from "../context";
import type { DB } from "../db/schema";
import { runBeforeServiceCommit, runInUnitOfWork, type SavedObject } from "../db/unit-of-work";
import { auditRepo } from "./audit.repo";
import { auditNamesRepo } from "./audit-names.repo";
import { auditObjectOf } from "./audit-object";
import { auditActionName, sanitizeAuditInfo } from "./sanitize";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Record the call in the audit log even though it does not save (registration, password reset;
     * they run as a unit of work like saves). "after-answer": sign-in and sign-out, whose refusals
     * must keep what they count (failed attempts, blocks), are recorded after the answer.
     */
    audited?: true | "after-answer";
    /**
     * "service": the call keeps its own transactions (an upload streams its bytes first), and its
     * entry is written in the first of them that commits instead of in a transaction of the request.
     */
    unitOfWork?: "service";
  }
  interface FastifyRequest {
    /** The call's entry is in the database already, committed with what it saved. */
    auditWritten?: boolean;
    /** Who acted, for calls without a session (registration, password reset); set by the handler. */
    auditActor?: { id: string | null; username: string; domainId?: string | null };
    /** The name of the call's object as it was before the handler ran (a delete's), read by its id. */
    auditNameBefore?: string | null;
    /** The object a handler without a path id or a JSON answer acted on (a fetched install script). */
    auditSaved?: SavedObject;
  }
  interface FastifyInstance {
    /** The audit log of web actions (see platform/audit). */
    auditLog: AuditLog;
  }
}

/** The audit log writer; `settle` waits for the entries written after an answer. */
export interface AuditLog {
  /** Adds the recording hooks to a scope before its routes; every route of it (and its children) is covered. */
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
 * this request) or is `audited`. A call that saves runs as one unit of work (platform/db/
 * unit-of-work): every query of its handler in one transaction, its SUCCESS entry the last
 * statement of it, so the save and its entry commit together or not at all. A refused call rolls
 * back, and its FAILURE entry is written after the answer, as are sign-in's and sign-out's. Calls
 * refused for want of a session (401 before a session exists) are not recorded: nobody acted, and
 * logging them would let anyone fill the log.
 */
export function createAuditLog(ctx: AppContext, root: Kysely<DB>): AuditLog {
  const pending = new Set<Promise<void>>();

  /** The route's entry in AUDIT_ROUTES, by the method and the path as registered. */
  function auditRouteOf(request: FastifyRequest) {
    return AUDIT_ROUTES[`${request.method} ${request.routeOptions.url ?? ""}`];
  }

  /** The id a route's object has in its path, to read its name before the handler changes it. */
  function paramIdOf(request: FastifyRequest): string | null {
    const source = auditRouteOf(request)?.id ?? "";
    if (!source.startsWith("param:")) return null;
    const value = (request.params as Record<string, unknown> | undefined)?.[source.slice(6)];
    return typeof value === "string" ? value : null;
  }

  async function objectOf(
    request: FastifyRequest,
    actor: { id: string | null; username: string; domainId: string | null },
    isSuccess: boolean,
    db: Kysely<DB>,
    answer: unknown,
    saved: SavedObject | undefined,
  ): Promise<{ kind: string | null; object: AuditObject | null }> {
    const route = auditRouteOf(request);
    if (!route) return { kind: null, object: null };
    const object = auditObjectOf(route, {
      params: request.params,
      body: request.body,
      answer: isSuccess ? answer : undefined,
      saved: saved ?? request.auditSaved,
      actor,
    });
    // A refused call may name another domain's object: only a done deed gets a name from the database.
    if (isSuccess && object.name === null && object.id !== null) {
      object.name =
        request.auditNameBefore ??
        (await auditNamesRepo(db).findObjectNameAcrossDomains(object.type, object.id));
    }
    return { kind: route.kind, object };
  }

  async function write(
    request: FastifyRequest,
    reply: FastifyReply,
    db: Kysely<DB>,
    answer?: unknown,
    saved?: SavedObject,
  ): Promise<void> {
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
        known === undefined ? await auditRepo(db).findAuthorByUsernameAcrossDomains(named) : undefined;
      actor = {
        id: request.auditActor?.id ?? found?.id ?? null,
        username: named,
        domainId: known ?? found?.domain_id ?? null,
      };
    }
    const { kind, object } = await objectOf(request, actor, status === "SUCCESS", db, answer, saved);
    await auditRepo(db).insertWebAction(actor.domainId, {
      authorId: actor.id,
      author: actor.username,
      action: auditActionName(request.method, request.routeOptions.url ?? request.url),
      status,
      createTime: ctx.now(),
      clientIp: request.ip ?? null,
      info: sanitizeAuditInfo(request.body),
      kind,
      object,
      viaToken: session?.apiToken?.name ?? null,
    });
  }

  /** The handler of a route that may save, run as a unit of work with its entry inside. */
  function wrapHandler(handler: RouteHandlerMethod, ownTransactions: boolean): RouteHandlerMethod {
    return async function auditedHandler(this: FastifyInstance, request, reply) {
      if (!shouldAudit(request)) return handler.call(this, request, reply);
      const id = paramIdOf(request);
      const route = auditRouteOf(request);
      if (id !== null && route) {
        request.auditNameBefore = await auditNamesRepo(root).findObjectNameAcrossDomains(route.object, id);
      }
      if (ownTransactions) {
        return runBeforeServiceCommit(
          async () => handler.call(this, request, reply),
          async (trx: Kysely<DB>, saved?: SavedObject) => {
            await write(request, reply, trx, undefined, saved);
            request.auditWritten = true;
          },
        );
      }
      try {
        return await runInUnitOfWork(
          root,
          async () => handler.call(this, request, reply),
          async (trx: Kysely<DB>, answer: unknown) => {
            await write(request, reply, trx, answer);
            request.auditWritten = true;
          },
        );
      } catch (error) {
        request.auditWritten = false;
        throw error;
      }
    };
  }

  return {
    install(scope) {
      scope.addHook("onRoute", (route) => {
        const config = (route.config ?? {}) as { saves?: unknown; audited?: unknown; unitOfWork?: unknown };
        if (!config.saves && config.audited !== true) return;
        route.handler = wrapHandler(route.handler, config.unitOfWork === "service");
      });
      scope.addHook("onResponse", async (request, reply) => {
        if (request.auditWritten || !shouldAudit(request)) return;
        const job: Promise<void> = write(request, reply, ctx.db)
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
