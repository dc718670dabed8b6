import { AgentInstallLinkSchema } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import type { GatewayPortSource } from "./insight.routes";
import {
  agentPackage,
  createInstallLink,
  INSTALL_TOKEN_PATTERN,
  serveInstallScript,
} from "./install.service";

const DeviceParamsSchema = z.object({ dev_id: z.string().min(1).max(64) });
const InstallQuerySchema = z.object({ token: z.string().regex(INSTALL_TOKEN_PATTERN).optional() });

/**
 * The agent's one-line install (issue 25, ADR 034): a router's one-time link, made on its page, and
 * what a router fetches without a session (the script, the package).
 */
export const installRoutes: FastifyPluginAsyncZod<{
  ctx: AppContext;
  gatewayPort?: GatewayPortSource;
}> = async (app, { ctx, gatewayPort }) => {
  app.post(
    "/device/:dev_id/install",
    {
      schema: {
        tags: ["insight"],
        summary:
          "A one-line install of the OpenWrt agent for this router: a link that serves the script once, for 15 minutes, with its ident and key",
        params: DeviceParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: AgentInstallLinkSchema, ...ERROR_RESPONSES },
      },
      // Who may give the router a new key may hand its key to the router (ADR 034).
      config: { saves: true, permission: "devices.edit" },
    },
    async (request) => createInstallLink(ctx, requireSession(request), request.params.dev_id),
  );

  app.get(
    "/agent/install.sh",
    {
      schema: {
        tags: ["insight"],
        summary:
          "The agent's install script for `wget -qO- … | sh`: with a link's token, filled with its router's ident and key (served once); without, it takes them as arguments",
        querystring: InstallQuerySchema,
        response: { 200: z.string(), ...ERROR_RESPONSES },
      },
      // A router fetches it without a session; a link's use is recorded under the user who made it.
      config: { isPublic: true, audited: true },
    },
    async (request, reply) => {
      const { script, actor, device } = await serveInstallScript(
        ctx,
        request.query.token,
        gatewayPort?.() ?? null,
      );
      if (actor) request.auditActor = actor;
      if (device) request.auditSaved = device;
      // Returned, not sent: the answer goes out once the link's use and its audit entry are committed.
      reply.type("text/x-shellscript; charset=utf-8").header("cache-control", "no-store");
      return script;
    },
  );

  app.get(
    "/agent/cellfleet-agent.ipk",
    {
      schema: {
        tags: ["insight"],
        summary: "The OpenWrt agent's package (.ipk) that the install script installs",
        response: { 200: z.any(), ...ERROR_RESPONSES },
      },
      config: { isPublic: true },
    },
    async (_request, reply) =>
      reply
        .type("application/octet-stream")
        .header("content-disposition", 'attachment; filename="cellfleet-agent.ipk"')
        .send(await agentPackage()),
  );
};
