import type { FeatureModule } from "../../platform/feature-module";
import { endUserSessions } from "./account-rules";
import { authRoutes } from "./auth.routes";
import { assertRecentSignIn } from "./session.service";
import { signInRepo } from "./sign-in.repo";

/** Sign-in, sessions and the account rules; it answers the session guard's and the users feature's hooks. */
export const authModule: FeatureModule = {
  name: "auth",
  routes: authRoutes,
  setUp(ctx) {
    ctx.hooks.fill("auth.recentSignIn", (session) => assertRecentSignIn(ctx, session));
    ctx.hooks.fill("users.endSessions", (user) => endUserSessions(ctx, user));
    ctx.hooks.fill("users.unblocked", (userId) => signInRepo(ctx.db).resetDevicesOfUserAcrossDomains(userId));
  },
};
