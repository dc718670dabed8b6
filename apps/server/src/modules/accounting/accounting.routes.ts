import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context";
import { domainsRoutes } from "../domains/domains.routes";
import { policiesRoutes } from "../policies/policies.routes";
import { registrationRoutes } from "../registration/registration.routes";
import { usersRoutes } from "../users/users.routes";
import { webActionsRoutes } from "../web-actions/web-actions.routes";
import { createReauthCheck } from "./accounting.shared";

/** Accounting and security (issue 4): domains, users, superusers, policies, registration, the audit log. */
export const accountingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook("preHandler", createReauthCheck(ctx));
  await app.register(domainsRoutes, { ctx });
  await app.register(usersRoutes, { ctx });
  await app.register(policiesRoutes, { ctx });
  await app.register(registrationRoutes, { ctx });
  await app.register(webActionsRoutes, { ctx });
};
