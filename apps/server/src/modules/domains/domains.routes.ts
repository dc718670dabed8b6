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
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { hasFields, savesWhenFields } from "../../platform/http/read-or-save";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { UserIdParamsSchema } from "../users/users.routes";
import {
  changeDomainAdmin,
  createDomainAdmin,
  listDomainAdmins,
  readDomainAdmin,
  removeDomainAdmin,
} from "./domain-admins.service";
import { DOMAIN_CSV_COLUMNS, exportDomainsRows } from "./domains.export";
import { createDomain, listDomains, readDomain, updateDomain } from "./domains.service";

/** The path parameter of a domain page. */
const DomainIdParamsSchema = z.object({ domainId: z.string().min(1).max(64) });
const AdminParamsSchema = DomainIdParamsSchema.merge(UserIdParamsSchema);

/** Domains and their admins (spec sections 2 and 3): superusers, by the permission table. */
export const domainsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/domains/",
    {
      schema: {
        tags: ["domains"],
        summary: "The domains list",
        body: DomainListRequestSchema.nullish(),
        response: { 200: DomainListAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "domains.view" },
    },
    async (request) => listDomains(ctx, request.body ?? DomainListRequestSchema.parse({})),
  );

  registerCsvExport(app, "domains", {
    body: DomainListRequestSchema,
    summary: "The domains the list shows for the same search, by name (limit and offset ignored)",
    columns: DOMAIN_CSV_COLUMNS,
    rows: (_session, request) => exportDomainsRows(ctx, request),
  });

  app.post(
    "/domains/new",
    {
      schema: {
        tags: ["domains"],
        summary: "Create a domain",
        body: CreateDomainBodySchema,
        response: { 200: DomainDetailSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "domains.manage" },
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
      config: { saves: savesWhenFields, permission: { read: "domains.view", save: "domains.manage" } },
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
      config: { permission: "domains.view" },
    },
    async (request) => ({
      items: await listDomainAdmins(ctx, requireSession(request), request.params.domainId),
    }),
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
      config: { saves: true, permission: "domains.manage" },
    },
    async (request) => createDomainAdmin(ctx, requireSession(request), request.params.domainId, request.body),
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
      config: { saves: savesWhenFields, permission: { read: "domains.view", save: "domains.manage" } },
    },
    async (request) => {
      const session = requireSession(request);
      const { domainId, userId } = request.params;
      if (!hasFields(request.body)) return readDomainAdmin(ctx, session, domainId, userId);
      return changeDomainAdmin(ctx, session, domainId, userId, request.body ?? {});
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
      config: { saves: true, permission: "domains.manage" },
    },
    async (request) => {
      await removeDomainAdmin(ctx, requireSession(request), request.params.domainId, request.params.userId);
      return { ok: true as const };
    },
  );
};
