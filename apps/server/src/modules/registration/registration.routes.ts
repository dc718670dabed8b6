import {
  ForgotPasswordRequestSchema,
  RegistrationAnswerSchema,
  RegistrationCodeRequestSchema,
  RegistrationRequestSchema,
  ResetPasswordAnswerSchema,
  ResetPasswordRequestSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, OkSchema } from "../../platform/http/schemas";
import { forgotPassword, register, resetPassword, sendRegistrationCode } from "./registration.service";

/** Registration of a company and passwords by e-mail: public, rate-limited like sign-in, audited. */
export const registrationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = {
    isPublic: true,
    audited: true as const,
    rateLimit: { max: ctx.config.loginRateLimit, timeWindow: 60_000 },
  };

  app.post(
    "/registry/code",
    {
      schema: {
        tags: ["registration"],
        summary: "E-mail a registration key",
        body: RegistrationCodeRequestSchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config,
    },
    async (request) => {
      await sendRegistrationCode(ctx, request.body.email);
      return { ok: true as const };
    },
  );

  app.post(
    "/registry",
    {
      schema: {
        tags: ["registration"],
        summary: "Register a company: its domain and admin",
        body: RegistrationRequestSchema,
        response: { 200: RegistrationAnswerSchema, ...ERROR_RESPONSES },
      },
      config,
    },
    async (request) => {
      request.auditActor = { id: null, username: request.body.email };
      return register(ctx, request.body);
    },
  );

  app.post(
    "/password/forgot",
    {
      schema: {
        tags: ["registration"],
        summary: "E-mail a password-reset code (answers alike for unknown accounts)",
        body: ForgotPasswordRequestSchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config,
    },
    async (request) => {
      await forgotPassword(ctx, request.body);
      return { ok: true as const };
    },
  );

  app.post(
    "/password/reset",
    {
      schema: {
        tags: ["registration"],
        summary: "Set a new password with the e-mailed code",
        body: ResetPasswordRequestSchema,
        response: { 200: ResetPasswordAnswerSchema, ...ERROR_RESPONSES },
      },
      config,
    },
    async (request) => {
      const { username } = await resetPassword(ctx, request.body);
      request.auditActor = { id: null, username };
      return { ok: true as const, username };
    },
  );
};
