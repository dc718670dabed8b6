import {
  AccountingUserSchema,
  CreateAccountingUserSchema,
  CreateManagerSchema,
  ManagerListAnswerSchema,
  SuperuserListRequestSchema,
  UpdateAccountingUserSchema,
  UpdateManagerSchema,
  UserListAnswerSchema,
  UserListRequestSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { hasFields, savesWhenFields, UserIdParamsSchema } from "../accounting/accounting.shared";
import { listUsers, presentUser, readUser, removeUser } from "./users.service";
import { createAccount, updateAccount } from "./users-write.service";

/** The users list and page (roles 1-3) and the superusers (role 1): spec sections 2 and 6. */
export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const staff = { preHandler: requireRole([1, 2, 3]) };
  const managers = { preHandler: requireRole([1, 2]) };
  const superusers = { preHandler: requireRole([1]) };

  app.post(
    "/users/",
    {
      schema: {
        tags: ["users"],
        summary: "The users list",
        body: UserListRequestSchema.nullish(),
        response: { 200: UserListAnswerSchema, ...ERROR_RESPONSES },
      },
      ...staff,
    },
    async (request) => ({ items: await listUsers(ctx, requireSession(request), request.body ?? {}) }),
  );

  app.post(
    "/user/new",
    {
      schema: {
        tags: ["users"],
        summary: "Create a user (superuser or admin)",
        body: CreateAccountingUserSchema,
        response: { 200: AccountingUserSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true },
      ...managers,
    },
    async (request) => {
      const session = requireSession(request);
      const { domain_id: domainId, ...account } = request.body;
      const target = session.role === 1 ? (domainId ?? null) : session.domainId;
      return presentUser(
        ctx,
        session,
        await createAccount(ctx, session, account.role === 1 ? null : target, account),
      );
    },
  );

  app.post(
    "/user/:userId",
    {
      schema: {
        tags: ["users"],
        summary: "Read a user (no fields) or change it",
        params: UserIdParamsSchema,
        body: UpdateAccountingUserSchema.nullish(),
        response: { 200: AccountingUserSchema, ...ERROR_RESPONSES },
      },
      config: { saves: savesWhenFields },
      ...staff,
    },
    async (request) => {
      const session = requireSession(request);
      if (!hasFields(request.body)) return readUser(ctx, session, request.params.userId);
      return presentUser(
        ctx,
        session,
        await updateAccount(ctx, session, request.params.userId, request.body ?? {}),
      );
    },
  );

  app.delete(
    "/user/:userId",
    {
      schema: {
        tags: ["users"],
        summary: "Remove a user (superuser or admin)",
        params: UserIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true },
      ...managers,
    },
    async (request) => {
      await removeUser(ctx, requireSession(request), request.params.userId);
      return { ok: true as const };
    },
  );

  app.post(
    "/superusers/",
    {
      schema: {
        tags: ["superusers"],
        summary: "The superusers list",
        body: SuperuserListRequestSchema.nullish(),
        response: { 200: ManagerListAnswerSchema, ...ERROR_RESPONSES },
      },
      ...superusers,
    },
    async (request) => ({
      items: await listUsers(ctx, requireSession(request), { search: request.body?.search, role: 1 }),
    }),
  );

  app.post(
    "/superuser/new",
    {
      schema: {
        tags: ["superusers"],
        summary: "Create a superuser",
        body: CreateManagerSchema,
        response: { 200: AccountingUserSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true },
      ...superusers,
    },
    async (request) => {
      const session = requireSession(request);
      return presentUser(ctx, session, await createAccount(ctx, session, null, { ...request.body, role: 1 }));
    },
  );

  app.post(
    "/superuser/:userId",
    {
      schema: {
        tags: ["superusers"],
        summary: "Read a superuser (no fields) or change it",
        params: UserIdParamsSchema,
        body: UpdateManagerSchema.nullish(),
        response: { 200: AccountingUserSchema, ...ERROR_RESPONSES },
      },
      config: { saves: savesWhenFields },
      ...superusers,
    },
    async (request) => {
      const session = requireSession(request);
      if (!hasFields(request.body)) return readUser(ctx, session, request.params.userId, 1);
      return presentUser(
        ctx,
        session,
        await updateAccount(ctx, session, request.params.userId, request.body ?? {}, 1),
      );
    },
  );

  app.delete(
    "/superuser/:userId",
    {
      schema: {
        tags: ["superusers"],
        summary: "Remove a superuser",
        params: UserIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true },
      ...superusers,
    },
    async (request) => {
      await removeUser(ctx, requireSession(request), request.params.userId, 1);
      return { ok: true as const };
    },
  );
};
