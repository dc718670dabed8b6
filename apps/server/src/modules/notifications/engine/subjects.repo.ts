import type { Kysely } from "kysely";
import { domainOp } from "../../../platform/db/domain-filter";
import type { DB, StoredDomainSettings } from "../../../platform/db/schema";

/** A device as the monitors see it. */
export interface MonitoredDevice {
  id: string;
  domain_id: string;
  ident: string;
  tags: string[];
  last_contact: Date | null;
  last_status: string;
}

/** An event with its device. */
export interface MonitoredEvent {
  id: string;
  domain_id: string;
  device_id: string | null;
  kind: string;
  level: string;
  message: string;
  ident: string | null;
  tags: string[];
}

/** A person as the account monitors see them. */
export interface MonitoredUser {
  id: string;
  domain_id: string | null;
  username: string;
  password_expire_date: Date | null;
}

const DEVICE_COLUMNS = ["id", "domain_id", "ident", "tags", "last_contact", "last_status"] as const;

/**
 * What the monitors read about their subjects. Outbox events and timers come from every domain at
 * once (a batch of reports, a sweep), so those lookups say AcrossDomains; the timers' per-rule
 * queries take the rule's domain.
 */
export function subjectsRepo(db: Kysely<DB>) {
  return {
    async findDevicesByIdsAcrossDomains(ids: readonly string[]): Promise<MonitoredDevice[]> {
      if (ids.length === 0) return [];
      return db.selectFrom("devices").select(DEVICE_COLUMNS).where("id", "in", ids).execute();
    },

    async findEventsByIdsAcrossDomains(ids: readonly string[]): Promise<MonitoredEvent[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("events as e")
        .leftJoin("devices as d", "d.id", "e.device_id")
        .select(["e.id", "e.domain_id", "e.device_id", "e.kind", "e.level", "e.message", "d.ident", "d.tags"])
        .where("e.id", "in", ids)
        .execute();
      return rows.map((row) => ({ ...row, id: String(row.id), tags: row.tags ?? [] }));
    },

    async findUserAcrossDomains(id: string): Promise<MonitoredUser | undefined> {
      return db
        .selectFrom("users")
        .select(["id", "domain_id", "username", "password_expire_date"])
        .where("id", "=", id)
        .executeTakeFirst();
    },

    /** The domain's devices disconnected, or where that is not known silent, since before `before` (the connect timer). */
    async findSilentDevices(domainId: string, before: Date): Promise<MonitoredDevice[]> {
      return (
        db
          .selectFrom("devices")
          .select(DEVICE_COLUMNS)
          .where("domain_id", "=", domainId)
          // Disconnected since before, as the gateway saw it; where it cannot tell, silent since (ADR 032).
          .where((eb) =>
            eb.or([
              eb.and([eb("connected", "=", false), eb("connection_time", "<", before)]),
              eb.and([eb("connected", "is", null), eb("last_contact", "<", before)]),
            ]),
          )
          .execute()
      );
    },

    /** Some of the domain's devices. */
    async findDevicesByIds(domainId: string, ids: readonly string[]): Promise<MonitoredDevice[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom("devices")
        .select(DEVICE_COLUMNS)
        .where("domain_id", "=", domainId)
        .where("id", "in", ids)
        .execute();
    },

    /** The domain's devices with their domain's thresholds (the check-interval digest). */
    async findDevicesWithSettings(
      domainId: string,
    ): Promise<{ devices: MonitoredDevice[]; settings: StoredDomainSettings | undefined }> {
      const [devices, domain] = await Promise.all([
        db.selectFrom("devices").select(DEVICE_COLUMNS).where("domain_id", "=", domainId).execute(),
        db.selectFrom("domains").select("settings").where("id", "=", domainId).executeTakeFirst(),
      ]);
      return { devices, settings: domain?.settings };
    },

    /** The scope's live people whose password expires after `from` and by `until`. */
    async findPasswordsExpiring(domainId: string | null, from: Date, until: Date): Promise<MonitoredUser[]> {
      return db
        .selectFrom("users")
        .select(["id", "domain_id", "username", "password_expire_date"])
        .where("domain_id", domainOp(domainId), domainId)
        .where("removed_at", "is", null)
        .where("password_expire_date", ">", from)
        .where("password_expire_date", "<=", until)
        .execute();
    },
  };
}
