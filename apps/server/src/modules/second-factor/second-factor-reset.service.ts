import type { Role } from "@cellfleet/contract";
import { assertCan } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { enqueueMail } from "../../platform/mail/mail.jobs";
import { secondFactorResetMail } from "../account-mail/account-mails";
import { findVisibleUser } from "../users/users.service";
import { secondFactorRepo } from "./second-factor.repo";

/**
 * POST /api/user/{user_id}/second-factor/reset: an administrator removes a member's TOTP app,
 * passkeys, recovery codes and remembered browsers (a lost phone). The member is told by mail,
 * queued in the same transaction; the audit log records who did it.
 */
export async function resetSecondFactor(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
): Promise<void> {
  const target = await findVisibleUser(ctx, session, userId);
  assertCan(session, "users.resetSecondFactor", { role: target.role as Role });
  const email = target.email;
  await ctx.jobs.transaction(async (trx) => {
    await secondFactorRepo(trx).removeAllFactors(target.domain_id, target.id);
    if (email) {
      await enqueueMail(ctx.jobs, trx, secondFactorResetMail(email, target.username, ctx.config.publicUrl), {
        domainId: target.domain_id,
      });
    }
  });
}
