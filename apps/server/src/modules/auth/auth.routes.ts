import {
  LoginAnswerSchema,
  LoginRequestSchema,
  SecondFactorOptionsRequestSchema,
  SecondFactorSignInSchema,
  SessionUserSchema,
  WebAuthnOptionsSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { prepareDummyPasswordHash } from "../../platform/auth/passwords";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { currentSessionUser, login, logout } from "./auth.service";
import { deviceCookieHeader, isSecure, readCookies } from "./device-cookie.http";
import { completeSecondFactor, secondFactorOptions } from "./second-factor-step";

/** POST /api/login/ (and its second step), /api/logout/, /api/accounting/self. */
export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  await prepareDummyPasswordHash();

  app.post(
    "/login/",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Sign in with a username and password, or `{ demo: true }` for the read-only demo; a person with a second factor is answered the second step to take",
        body: LoginRequestSchema,
        response: { 200: LoginAnswerSchema, ...ERROR_RESPONSES },
      },
      config: {
        isPublic: true,
        // Refusals keep what they count (failed attempts, blocks): recorded after the answer.
        audited: "after-answer",
        rateLimit: { max: ctx.config.loginRateLimit, timeWindow: 60_000 },
      },
    },
    async (request, reply) => {
      const result = await login(ctx, {
        request: request.body,
        clientIp: request.ip,
        cookies: readCookies(request.headers.cookie),
      });
      if ("second_factor" in result) return result;
      const { user, deviceCookie } = result;
      // Names the author of the audit entry, also for the demo sign-in whose body has no username.
      request.auditActor = { id: user._id, username: user.username };
      if (deviceCookie)
        reply.header("set-cookie", deviceCookieHeader(deviceCookie, isSecure(request, ctx.config.publicUrl)));
      return user;
    },
  );

  app.post(
    "/login/second-factor/options",
    {
      schema: {
        tags: ["auth"],
        summary: "The passkey request (WebAuthn) of a sign-in's second step",
        body: SecondFactorOptionsRequestSchema,
        response: { 200: WebAuthnOptionsSchema, ...ERROR_RESPONSES },
      },
      config: { isPublic: true, rateLimit: { max: ctx.config.loginRateLimit, timeWindow: 60_000 } },
    },
    async (request) => secondFactorOptions(ctx, request.body.challenge_token),
  );

  app.post(
    "/login/second-factor",
    {
      schema: {
        tags: ["auth"],
        summary:
          "The second step of a sign-in: an authenticator app's code, a recovery code or a passkey's answer",
        body: SecondFactorSignInSchema,
        response: { 200: SessionUserSchema, ...ERROR_RESPONSES },
      },
      config: {
        isPublic: true,
        // Wrong codes keep what they count, as wrong passwords do (ADR 016): recorded after the answer.
        audited: "after-answer",
        rateLimit: { max: ctx.config.loginRateLimit, timeWindow: 60_000 },
      },
    },
    async (request, reply) => {
      const { user, deviceCookie } = await completeSecondFactor(ctx, {
        step: request.body,
        clientIp: request.ip,
        // Wrong codes are recorded under the person too (the body names nobody).
        onPerson: (person) => {
          request.auditActor = { id: person.id, username: person.username, domainId: person.domain_id };
        },
      });
      if (deviceCookie)
        reply.header("set-cookie", deviceCookieHeader(deviceCookie, isSecure(request, ctx.config.publicUrl)));
      return user;
    },
  );

  app.post(
    "/logout/",
    {
      schema: {
        tags: ["auth"],
        summary: "End the current session; its open sockets close",
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { allowsFactoryPassword: true, audited: "after-answer", permission: "account.self" },
    },
    async (request) => {
      await logout(ctx, requireSession(request));
      return { ok: true as const };
    },
  );

  app.post(
    "/accounting/self",
    {
      schema: {
        tags: ["auth"],
        summary: "The session user of the current session",
        body: TokenOnlyBodySchema,
        response: { 200: SessionUserSchema, ...ERROR_RESPONSES },
      },
      config: { allowsFactoryPassword: true, permission: "account.self" },
    },
    async (request) => currentSessionUser(requireSession(request)),
  );
};
