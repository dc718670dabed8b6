import type { AppContext } from "../../platform/context";
import type { NoPayload } from "../../platform/jobs/jobs";
import type { LicenseExpirySource } from "../notifications/engine/hooks";
import { licencesRepo } from "./licences.repo";
import { shortLicenseId } from "./licences.rules";
import { LICENSE_ACTIVATE_JOB, refreshAllLicenses, runActivation } from "./licences.service";

/** The daily re-ask of every licence, so a ban, a renewal or an expiry reaches the console. */
export const LICENSE_REFRESH_ALL_JOB = "licences.refreshAll";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "licences.refreshAll": NoPayload;
  }
}
const DAY_MS = 24 * 3600_000;

/**
 * Registers the licence jobs. An activation is tried once per request (its outcome, a Server error
 * included, is what root sees; 'Refresh' or the daily job asks again) with room for a slow service.
 */
export function registerLicenceJobs(ctx: AppContext): void {
  ctx.jobs.register(LICENSE_ACTIVATE_JOB, {
    maxAttempts: 1,
    timeoutMs: 30_000,
    handle: (run) => runActivation(ctx, run.payload.licenseId, run.signal),
  });
  ctx.jobs.register(LICENSE_REFRESH_ALL_JOB, { handle: () => refreshAllLicenses(ctx) });
  ctx.jobs.every(LICENSE_REFRESH_ALL_JOB, DAY_MS);
}

/**
 * The notify-in-advance timer's licence source: licences in force whose period ends within the
 * rule's hours. Licences are the installation's, so every scope's rule hears of them (a domain's
 * admins lose the right to add routers too when they lapse).
 */
export const licenceExpirySource: LicenseExpirySource = {
  async findExpiring(db, _domainId, from, until) {
    const rows = await licencesRepo(db).listLicenses();
    return rows.flatMap((row) => {
      const payload = row.document;
      if (payload?.status !== "active" || !payload.validUntil) return [];
      const expiresAt = new Date(payload.validUntil);
      if (expiresAt.getTime() <= from.getTime() || expiresAt.getTime() > until.getTime()) return [];
      return [{ id: row.id, label: `${shortLicenseId(row.key)} (${payload.deviceCount})`, expiresAt }];
    });
  },
};
