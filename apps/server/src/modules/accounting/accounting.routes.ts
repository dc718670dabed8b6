import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context";
import { domainsRoutes } from "../domains/domains.routes";
import { policiesRoutes } from "../policies/policies.routes";
import { registrationRoutes } from "../registration/registration.routes";
import { usersRoutes } from "../users/users.routes";
import { webActionsRoutes } from "../web-actions/web-actions.routes";

/** Accounting and security (issue 4): domains, users, superusers, policies, registration, the audit log. */
export const accountingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Saving any of them asks for a recent sign-in when the user's policy says so (the session guard).
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, asksRecentSignIn: true };
  });
  await app.register(domainsRoutes, { ctx });
  await app.register(usersRoutes, { ctx });
  await app.register(policiesRoutes, { ctx });
  await app.register(registrationRoutes, { ctx });
  await app.register(webActionsRoutes, { ctx });
};
