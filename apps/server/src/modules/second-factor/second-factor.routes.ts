import {
  PasskeyIdParamsSchema,
  PasskeyRegisterSchema,
  SecondFactorEnrolledSchema,
  SecondFactorStatusSchema,
  TotpConfirmSchema,
  TotpEnrolmentSchema,
  WebAuthnOptionsSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import {
  ERROR_RESPONSES,
  OkSchema,
  TokenFieldSchema,
  TokenOnlyBodySchema,
} from "../../platform/http/schemas";
import { UserIdParamsSchema } from "../users/users.routes";
import {
  addPasskey,
  confirmTotpEnrolment,
  readSecondFactorStatus,
  removePasskey,
  removeTotp,
  renewRecoveryCodes,
  startPasskeyEnrolment,
  startTotpEnrolment,
} from "./second-factor.service";
import { resetSecondFactor } from "./second-factor-reset.service";

/** Routes a person held on the profile page (ADR 039) may call: enrolling is how the hold ends. */
const OWN = { allowsFactoryPassword: true, permission: "profile.secondFactor" } as const;

/** The own second factor on the profile page, and an administrator's reset of a member's (ADR 039). */
export const secondFactorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/profile/second-factor",
    {
      schema: {
        tags: ["profile"],
        summary: "What the caller has enrolled: authenticator app, passkeys, recovery codes left",
        body: TokenOnlyBodySchema,
        response: { 200: SecondFactorStatusSchema, ...ERROR_RESPONSES },
      },
      config: { allowsFactoryPassword: true, permission: "account.self" },
    },
    async (request) => readSecondFactorStatus(ctx, requireSession(request)),
  );

  app.post(
    "/profile/second-factor/totp/start",
    {
      schema: {
        tags: ["profile"],
        summary: "A new authenticator app secret and its QR code; it counts once a code confirms it",
        body: TokenOnlyBodySchema,
        response: { 200: TotpEnrolmentSchema, ...ERROR_RESPONSES },
      },
      config: { ...OWN, saves: true },
    },
    async (request) => startTotpEnrolment(ctx, requireSession(request)),
  );

  app.post(
    "/profile/second-factor/totp/confirm",
    {
      schema: {
        tags: ["profile"],
        summary: "Confirm the authenticator app with a code; the first factor answers recovery codes once",
        body: TotpConfirmSchema.extend({ token: TokenFieldSchema }),
        response: { 200: SecondFactorEnrolledSchema, ...ERROR_RESPONSES },
      },
      config: { ...OWN, saves: true, asksRecentSignIn: true },
    },
    async (request) => confirmTotpEnrolment(ctx, requireSession(request), request.body.totp),
  );

  app.delete(
    "/profile/second-factor/totp",
    {
      schema: {
        tags: ["profile"],
        summary: "Remove the authenticator app",
        body: TokenOnlyBodySchema,
        response: { 200: SecondFactorStatusSchema, ...ERROR_RESPONSES },
      },
      config: { ...OWN, saves: true, asksRecentSignIn: true },
    },
    async (request) => removeTotp(ctx, requireSession(request)),
  );

  app.post(
    "/profile/second-factor/passkey/options",
    {
      schema: {
        tags: ["profile"],
        summary: "WebAuthn options to make a new passkey or security key",
        body: TokenOnlyBodySchema,
        response: { 200: WebAuthnOptionsSchema, ...ERROR_RESPONSES },
      },
      config: { ...OWN, saves: true },
    },
    async (request) => startPasskeyEnrolment(ctx, requireSession(request)),
  );

  app.post(
    "/profile/second-factor/passkey",
    {
      schema: {
        tags: ["profile"],
        summary: "Store the browser's new passkey; the first factor answers recovery codes once",
        body: PasskeyRegisterSchema.extend({ token: TokenFieldSchema }),
        response: { 200: SecondFactorEnrolledSchema, ...ERROR_RESPONSES },
      },
      config: { ...OWN, saves: true, asksRecentSignIn: true },
    },
    async (request) => addPasskey(ctx, requireSession(request), request.body.name, request.body.credential),
  );

  app.delete(
    "/profile/second-factor/passkey/:passkeyId",
    {
      schema: {
        tags: ["profile"],
        summary: "Remove a passkey",
        params: PasskeyIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: SecondFactorStatusSchema, ...ERROR_RESPONSES },
      },
      config: { ...OWN, saves: true, asksRecentSignIn: true },
    },
    async (request) => removePasskey(ctx, requireSession(request), request.params.passkeyId),
  );

  app.post(
    "/profile/second-factor/recovery-codes",
    {
      schema: {
        tags: ["profile"],
        summary: "Ten new recovery codes, shown once; the old ones stop working",
        body: TokenOnlyBodySchema,
        response: { 200: SecondFactorEnrolledSchema, ...ERROR_RESPONSES },
      },
      config: { ...OWN, saves: true, asksRecentSignIn: true },
    },
    async (request) => renewRecoveryCodes(ctx, requireSession(request)),
  );

  app.post(
    "/user/:userId/second-factor/reset",
    {
      schema: {
        tags: ["users"],
        summary: "Remove a member's second factor (a lost phone); the member is told by mail",
        params: UserIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "users.resetSecondFactor", asksRecentSignIn: true },
    },
    async (request) => {
      await resetSecondFactor(ctx, requireSession(request), request.params.userId);
      return { ok: true as const };
    },
  );
};
