import type { Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema";

// Hooks for the timer monitors whose subjects other parts of the product own: licences and
// firmware rules register a source here in their set-up (`ctx.hooks.get("notifications.sources")`;
// the software rules' is modules/firmware/firmware-updates.ts), and the notify-in-advance and
// firmware-update timers read every registered source. A kind with no source yet can be saved and
// simply finds nothing.

declare module "../../../platform/hooks" {
  interface Hooks {
    /** Where modules above notifications register what its timers read (filled by its own set-up). */
    "notifications.sources": NotificationHooks;
  }
}

/** Something that expires (a licence), as the notify-in-advance timer reads it. */
export interface ExpiringItem {
  /** Stable id of the thing (with the expiry, it makes the incident's key). */
  id: string;
  /** How the message names it. */
  label: string;
  expiresAt: Date;
}

/** Where the notify-in-advance timer finds licences that expire. */
export interface LicenseExpirySource {
  /** Licences of the scope (a domain, or null: the installation's) expiring after `from` and by `until`. */
  findExpiring(db: Kysely<DB>, domainId: string | null, from: Date, until: Date): Promise<ExpiringItem[]>;
}

/** A device that a newer firmware fits. */
export interface FirmwareUpdateItem {
  deviceId: string;
  ident: string;
  tags: string[];
  version: string;
}

/** Where the firmware-update timer finds devices with an update available. */
export interface FirmwareUpdateSource {
  findUpdates(db: Kysely<DB>, domainId: string): Promise<FirmwareUpdateItem[]>;
}

/** The registry of sources, one per app. */
export interface NotificationHooks {
  registerLicenseSource(source: LicenseExpirySource): void;
  registerFirmwareSource(source: FirmwareUpdateSource): void;
  licenseSources(): readonly LicenseExpirySource[];
  firmwareSources(): readonly FirmwareUpdateSource[];
}

/** An empty registry. */
export function createNotificationHooks(): NotificationHooks {
  const licenses: LicenseExpirySource[] = [];
  const firmware: FirmwareUpdateSource[] = [];
  return {
    registerLicenseSource: (source) => void licenses.push(source),
    registerFirmwareSource: (source) => void firmware.push(source),
    licenseSources: () => licenses,
    firmwareSources: () => firmware,
  };
}
