import {
  AccountingUserSchema,
  CreateDomainBodySchema,
  CreateManagerSchema,
  DomainDetailSchema,
  DomainListAnswerSchema,
  DomainListRequestSchema,
  ManagerListAnswerSchema,
  UpdateDomainBodySchema,
  UpdateManagerSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import {
  DomainIdParamsSchema,
  hasFields,
  savesWhenFields,
  UserIdParamsSchema,
} from "../accounting/accounting.shared";
import { listUsers, presentUser, readUser, removeUser } from "../users/users.service";
import { createAccount, updateAccount } from "../users/users-write.service";
import { assertDomainExists, createDomain, listDomains, readDomain, updateDomain } from "./domains.service";

const AdminParamsSchema = DomainIdParamsSchema.merge(UserIdParamsSchema);

/** Domains and their admins: superusers only (spec sections 2 and 3). */
export const domainsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook("preHandler", requireRole([1]));

  app.post(
    "/domains/",
    {
      schema: {
        tags: ["domains"],
        summary: "The domains list",
        body: DomainListRequestSchema.nullish(),
        response: { 200: DomainListAnswerSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => listDomains(ctx, request.body ?? DomainListRequestSchema.parse({})),
  );

  app.post(
    "/domains/new",
    {
      schema: {
        tags: ["domains"],
        summary: "Create a domain",
        body: CreateDomainBodySchema,
        response: { 200: DomainDetailSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true },
    },
    async (request) => createDomain(ctx, requireSession(request), request.body),
  );

  app.post(
    "/domain/:domainId",
    {
      schema: {
        tags: ["domains"],
        summary: "Read a domain (no fields) or change it",
        params: DomainIdParamsSchema,
        body: UpdateDomainBodySchema.nullish(),
        response: { 200: DomainDetailSchema, ...ERROR_RESPONSES },
      },
      config: { saves: savesWhenFields },
    },
    async (request) => {
      const session = requireSession(request);
      if (!hasFields(request.body)) return readDomain(ctx, session, request.params.domainId);
      return updateDomain(ctx, session, request.params.domainId, request.body ?? {});
    },
  );

  app.post(
    "/domain/:domainId/admins/",
    {
      schema: {
        tags: ["domains"],
        summary: "A domain's admins",
        params: DomainIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: ManagerListAnswerSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await assertDomainExists(ctx, request.params.domainId);
      return {
        items: await listUsers(ctx, requireSession(request), { domain_id: request.params.domainId, role: 2 }),
      };
    },
  );

  app.post(
    "/domain/:domainId/admins/new",
    {
      schema: {
        tags: ["domains"],
        summary: "Create a domain admin",
        params: DomainIdParamsSchema,
        body: CreateManagerSchema,
        response: { 200: AccountingUserSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true },
    },
    async (request) => {
      const session = requireSession(request);
      await assertDomainExists(ctx, request.params.domainId);
      return presentUser(
        ctx,
        session,
        await createAccount(ctx, session, request.params.domainId, { ...request.body, role: 2 }),
      );
    },
  );

  app.post(
    "/domain/:domainId/admins/:userId",
    {
      schema: {
        tags: ["domains"],
        summary: "Read a domain admin (no fields) or change it",
        params: AdminParamsSchema,
        body: UpdateManagerSchema.nullish(),
        response: { 200: AccountingUserSchema, ...ERROR_RESPONSES },
      },
      config: { saves: savesWhenFields },
    },
    async (request) => {
      const session = requireSession(request);
      await assertAdminOf(request.params.domainId, request.params.userId, session);
      if (!hasFields(request.body)) return readUser(ctx, session, request.params.userId, 2);
      return presentUser(
        ctx,
        session,
        await updateAccount(ctx, session, request.params.userId, request.body ?? {}, 2),
      );
    },
  );

  app.delete(
    "/domain/:domainId/admins/:userId",
    {
      schema: {
        tags: ["domains"],
        summary: "Remove a domain admin",
        params: AdminParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true },
    },
    async (request) => {
      const session = requireSession(request);
      await assertAdminOf(request.params.domainId, request.params.userId, session);
      await removeUser(ctx, session, request.params.userId, 2);
      return { ok: true as const };
    },
  );

  /** The admin must belong to the domain of the path. */
  async function assertAdminOf(
    domainId: string,
    userId: string,
    session: Parameters<typeof readUser>[1],
  ): Promise<void> {
    await assertDomainExists(ctx, domainId);
    const admin = await readUser(ctx, session, userId, 2);
    if (admin.domain_id !== domainId) {
      throw new AppError("USER_NOT_FOUND", "No such admin in this domain");
    }
  }
};
