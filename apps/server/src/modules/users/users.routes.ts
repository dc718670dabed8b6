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
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { hasFields, savesWhenFields } from "../../platform/http/read-or-save";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { exportUsersRows, USER_CSV_COLUMNS } from "./users.export";
import {
  listSuperusers,
  listUsers,
  readSuperuser,
  readUser,
  removeSuperuser,
  removeUser,
} from "./users.service";
import { changeSuperuser, changeUser, createSuperuser, createUser } from "./users-write.service";

/** The path parameter of a user page. */
export const UserIdParamsSchema = z.object({ userId: z.string().min(1).max(64) });

/** The users list and page and the superusers (spec sections 2 and 6; who may: the permission table). */
export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/users/",
    {
      schema: {
        tags: ["users"],
        summary: "The users list",
        body: UserListRequestSchema.nullish(),
        response: { 200: UserListAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "users.view" },
    },
    async (request) => ({ items: await listUsers(ctx, requireSession(request), request.body ?? {}) }),
  );

  registerCsvExport(app, "users", {
    body: UserListRequestSchema,
    summary: "The users the list shows for the same body, by username",
    columns: USER_CSV_COLUMNS,
    rows: (session, request) => exportUsersRows(ctx, session, request),
  });

  app.post(
    "/user/new",
    {
      schema: {
        tags: ["users"],
        summary: "Create a user (superuser or admin)",
        body: CreateAccountingUserSchema,
        response: { 200: AccountingUserSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "users.create" },
    },
    async (request) => createUser(ctx, requireSession(request), request.body),
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
      config: { saves: savesWhenFields, permission: { read: "users.view", save: "users.edit" } },
    },
    async (request) => {
      const session = requireSession(request);
      if (!hasFields(request.body)) return readUser(ctx, session, request.params.userId);
      return changeUser(ctx, session, request.params.userId, request.body ?? {});
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
      config: { saves: true, permission: "users.delete" },
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
      config: { permission: "superusers.view" },
    },
    async (request) => ({ items: await listSuperusers(ctx, requireSession(request), request.body?.search) }),
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
      config: { saves: true, permission: "superusers.manage" },
    },
    async (request) => createSuperuser(ctx, requireSession(request), request.body),
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
      config: {
        saves: savesWhenFields,
        permission: { read: "superusers.view", save: "superusers.manage" },
      },
    },
    async (request) => {
      const session = requireSession(request);
      if (!hasFields(request.body)) return readSuperuser(ctx, session, request.params.userId);
      return changeSuperuser(ctx, session, request.params.userId, request.body ?? {});
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
      config: { saves: true, permission: "superusers.manage" },
    },
    async (request) => {
      await removeSuperuser(ctx, requireSession(request), request.params.userId);
      return { ok: true as const };
    },
  );
};
