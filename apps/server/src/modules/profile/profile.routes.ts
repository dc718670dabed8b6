import { ProfileSchema, type ProfileUpdate, ProfileUpdateSchema } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenFieldSchema } from "../../platform/http/schemas";
import { hasProfileChanges, readProfile, updateProfile } from "./profile.service";

const ProfileBodySchema = ProfileUpdateSchema.extend({ token: TokenFieldSchema }).nullish();

/** POST /api/profile: reads the own profile, or changes it when the body has fields. */
export const profileRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/profile",
    {
      schema: {
        tags: ["profile"],
        summary: "Read the own profile (no fields) or change name, email, phone and/or password",
        body: ProfileBodySchema,
        response: { 200: ProfileSchema, ...ERROR_RESPONSES },
      },
      config: {
        allowsFactoryPassword: true,
        permission: { read: "account.self", save: "profile.edit" },
        saves: (request) => hasProfileChanges((request.body ?? undefined) as ProfileUpdate | undefined),
      },
    },
    async (request) => {
      const session = requireSession(request);
      const { token: _token, ...update } = request.body ?? {};
      return hasProfileChanges(update) ? updateProfile(ctx, session, update) : readProfile(ctx, session);
    },
  );
};
