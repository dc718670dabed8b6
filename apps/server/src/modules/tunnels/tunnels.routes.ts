import {
  ApproveTunnelSchema,
  CreateTunnelSchema,
  TunnelSessionSchema,
  TunnelSessionsSchema,
  WebTunnelOpenSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenFieldSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { registerTerminalSocket } from "./terminal.socket";
import type { TunnelRuntime } from "./tunnels.runtime";
import {
  approveTunnel,
  createTunnel,
  endTunnel,
  listTunnels,
  openRecording,
  refuseTunnel,
} from "./tunnels.service";

const TunnelParamsSchema = z.object({ id: z.string().uuid() });

/** Remote access (issue 29, ADR 038): sessions asked for, approved, refused, ended; the terminal socket. */
export function createTunnelsRoutes(
  runtime: () => TunnelRuntime,
): FastifyPluginAsyncZod<{ ctx: AppContext }> {
  return async (app, { ctx }) => {
    app.post(
      "/tunnels",
      {
        schema: {
          tags: ["tunnels"],
          summary:
            "Asks for a remote-access session on a router: an admin's is approved at once, anybody else's waits for approval",
          body: CreateTunnelSchema.extend({ token: TokenFieldSchema }),
          response: { 200: TunnelSessionSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: "tunnels.open" },
      },
      async (request) => createTunnel(ctx, requireSession(request), request.body),
    );

    app.post(
      "/tunnels/list",
      {
        schema: {
          tags: ["tunnels"],
          summary: "The domain's remote-access sessions: those not yet over, then the latest ended ones",
          body: TokenOnlyBodySchema,
          response: { 200: TunnelSessionsSchema, ...ERROR_RESPONSES },
        },
        config: { permission: "tunnels.view" },
      },
      async (request) => ({ items: await listTunnels(ctx, requireSession(request)) }),
    );

    app.post(
      "/tunnel/:id/approve",
      {
        schema: {
          tags: ["tunnels"],
          summary: "Approves a waiting session, naming its router and the duration approved (four eyes)",
          params: TunnelParamsSchema,
          body: ApproveTunnelSchema.extend({ token: TokenFieldSchema }),
          response: { 200: TunnelSessionSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: "tunnels.approve" },
      },
      async (request) => approveTunnel(ctx, requireSession(request), request.params.id, request.body),
    );

    app.post(
      "/tunnel/:id/refuse",
      {
        schema: {
          tags: ["tunnels"],
          summary: "Refuses a waiting session",
          params: TunnelParamsSchema,
          body: TokenOnlyBodySchema,
          response: { 200: TunnelSessionSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: "tunnels.approve" },
      },
      async (request) => refuseTunnel(ctx, requireSession(request), request.params.id),
    );

    app.post(
      "/tunnel/:id/end",
      {
        schema: {
          tags: ["tunnels"],
          summary: "Ends a session now: one's own, or an admin anybody's",
          params: TunnelParamsSchema,
          body: TokenOnlyBodySchema,
          response: { 200: TunnelSessionSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: "tunnels.end" },
      },
      async (request) => endTunnel(ctx, requireSession(request), request.params.id),
    );

    app.get(
      "/tunnel/:id/recording",
      {
        schema: {
          tags: ["tunnels"],
          summary:
            "An ended terminal session's recording, asciicast v2 (a header line, then one line per output)",
          params: TunnelParamsSchema,
          response: {
            200: z.unknown().describe("the recording (application/x-asciicast)"),
            ...ERROR_RESPONSES,
          },
        },
        config: { permission: "tunnels.view" },
      },
      async (request, reply) => {
        const read = await openRecording(ctx, requireSession(request), request.params.id);
        return reply
          .type("application/x-asciicast")
          .header("content-length", read.size)
          .header("cache-control", "private, no-store")
          .send(read.stream);
      },
    );

    app.post(
      "/tunnel/:id/web",
      {
        schema: {
          tags: ["tunnels"],
          summary:
            "Opens a web-interface session: once the router has dialled in, the session's own origin and its single-use link (good once, for a minute)",
          params: TunnelParamsSchema,
          body: TokenOnlyBodySchema,
          response: { 200: WebTunnelOpenSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: "tunnels.open" },
      },
      async (request) => runtime().openWeb(requireSession(request), request.params.id),
    );

    registerTerminalSocket(app, ctx, runtime);
  };
}
