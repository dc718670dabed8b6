import type { TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import {
  type DB,
  type DeviceCollectRow,
  type NewDeviceRow,
  type StoredDomainSettings,
  toJsonb,
} from "../../platform/db/schema";
import { tagScopeCondition } from "../../platform/db/tag-scope";
import { unreadColumn } from "./device-unread";
import type { DeviceDtoRow, DevicePushRow } from "./devices.mapper";

/**
 * Every device column a pushed device needs; the key is reduced to has_key in SQL so it never leaves
 * a repo. A viewer's DTO adds their unread count (unreadColumn, ADR 025).
 */
export const DEVICE_DTO_COLUMNS = [
  "devices.id",
  "devices.domain_id",
  "devices.ident",
  "devices.description",
  "devices.tags",
  "devices.model",
  "devices.firmware",
  "devices.serial",
  "devices.last_contact",
  "devices.signal_csq",
  "devices.network_mode",
  "devices.wan_up",
  "devices.connected",
  "devices.connection_time",
  "devices.has_backups",
  "devices.has_journals",
  "devices.meta",
  "devices.create_time",
  "devices.latitude",
  "devices.longitude",
  "devices.position_source",
] as const;

/** Whether the device has an AES key, computed in SQL. */
export const hasKeyColumn = sql<boolean>`coalesce(devices.aes_key, '') <> ''`.as("has_key");

/** A device's editable columns. */
export interface DeviceChanges {
  description?: string;
  tags?: string[];
  aes_key?: string | null;
  /** An admin's pin, or null to remove it (ADR 045). */
  position?: { latitude: number; longitude: number } | null;
}

/** One statement's rows in {@link devicesRepo}'s insertDevices. */
const INSERT_CHUNK = 2000;

/** A router of the domain as an import compares it with a row of the file. */
export interface DeviceImportTarget {
  id: string;
  ident: string;
  description: string;
  tags: string[];
  latitude: number | null;
  longitude: number | null;
  /** MD5 of the stored key ('' when none). */
  key_md5: string;
}

/** An import's change to one router: null fields stay as they are. */
export interface ImportedDeviceChange {
  id: string;
  description: string | null;
  tags: string[] | null;
  aes_key: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** Devices of one domain: every function takes the domain id first and filters by it. */
export function devicesRepo(db: Kysely<DB>) {
  const dtoQuery = (domainId: string) =>
    db
      .selectFrom("devices")
      .select(DEVICE_DTO_COLUMNS)
      .select(hasKeyColumn)
      .where("devices.domain_id", "=", domainId);

  return {
    /** The domain's status thresholds and device limit; undefined when the domain does not exist. */
    async findDomainFleetSettings(
      domainId: string,
    ): Promise<{ settings: StoredDomainSettings; device_limit: number } | undefined> {
      return db
        .selectFrom("domains")
        .select(["settings", "device_limit"])
        .where("id", "=", domainId)
        .executeTakeFirst();
    },

    /** Locks the domain row until the transaction ends, so concurrent creations respect the limit. */
    async lockDomainForDeviceCount(domainId: string): Promise<number | undefined> {
      const row = await db
        .selectFrom("domains")
        .select("device_limit")
        .where("id", "=", domainId)
        .forUpdate()
        .executeTakeFirst();
      return row?.device_limit;
    },

    async countDevices(domainId: string): Promise<number> {
      const row = await db
        .selectFrom("devices")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("domain_id", "=", domainId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** How many of these routers of the domain lie within the tag scope (ADR 041). */
    async countDevicesWithinTagScope(
      domainId: string,
      deviceIds: readonly string[],
      tagScope: TagScope,
    ): Promise<number> {
      if (deviceIds.length === 0) return 0;
      const row = await db
        .selectFrom("devices")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("domain_id", "=", domainId)
        .where("id", "in", deviceIds)
        .where(tagScopeCondition("tags", tagScope))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** The ids of the domain's routers within the tag scope (ADR 041), as their tags are now. */
    async findDeviceIdsWithinTagScope(domainId: string, tagScope: TagScope): Promise<string[]> {
      const rows = await db
        .selectFrom("devices")
        .select("id")
        .where("domain_id", "=", domainId)
        .where(tagScopeCondition("tags", tagScope))
        .execute();
      return rows.map((row) => row.id);
    },

    async findDevice(domainId: string, deviceId: string): Promise<DevicePushRow | undefined> {
      return dtoQuery(domainId).where("devices.id", "=", deviceId).executeTakeFirst();
    },

    /** The device as `viewerId` sees it: with the number of its events that user has not read. */
    async findDeviceForViewer(
      domainId: string,
      deviceId: string,
      viewerId: string,
    ): Promise<DeviceDtoRow | undefined> {
      return dtoQuery(domainId)
        .select(unreadColumn(viewerId))
        .where("devices.id", "=", deviceId)
        .executeTakeFirst();
    },

    async findDevicesByIds(domainId: string, deviceIds: readonly string[]): Promise<DevicePushRow[]> {
      if (deviceIds.length === 0) return [];
      return dtoQuery(domainId).where("devices.id", "in", deviceIds).orderBy("devices.ident").execute();
    },

    /** Idents are unique across the installation (they are MQTT client ids), so this looks everywhere. */
    async findTakenIdentsAcrossDomains(idents: readonly string[]): Promise<Set<string>> {
      if (idents.length === 0) return new Set();
      const rows = await db.selectFrom("devices").select("ident").where("ident", "in", idents).execute();
      return new Set(rows.map((row) => row.ident));
    },

    /** Inserts devices; an ident taken meanwhile is skipped (not an error): the ids inserted answer. */
    async insertDevices(
      domainId: string,
      devices: readonly Omit<NewDeviceRow, "domain_id">[],
    ): Promise<string[]> {
      const ids: string[] = [];
      // A statement carries at most 65,535 parameters: an import of 10,000 routers goes in parts.
      for (let start = 0; start < devices.length; start += INSERT_CHUNK) {
        const rows = await db
          .insertInto("devices")
          .values(
            devices.slice(start, start + INSERT_CHUNK).map((device) => ({ ...device, domain_id: domainId })),
          )
          .onConflict((oc) => oc.column("ident").doNothing())
          .returning("id")
          .execute();
        ids.push(...rows.map((row) => row.id));
      }
      return ids;
    },

    /**
     * The domain's routers with these idents, as an import compares them: the key only as its MD5,
     * so it stays in the database.
     */
    async findImportTargets(domainId: string, idents: readonly string[]): Promise<DeviceImportTarget[]> {
      if (idents.length === 0) return [];
      return db
        .selectFrom("devices")
        .select(["id", "ident", "description", "tags", "latitude", "longitude"])
        .select(sql<string>`md5(coalesce(aes_key, ''))`.as("key_md5"))
        .where("domain_id", "=", domainId)
        .where("ident", "in", idents)
        .execute();
    },

    /** Changes many routers in one statement; a null field is left as it is. */
    async updateImportedDevices(domainId: string, changes: readonly ImportedDeviceChange[]): Promise<number> {
      if (changes.length === 0) return 0;
      const result = await sql`
        update devices set
          description = coalesce(x.description, devices.description),
          tags = coalesce(x.tags, devices.tags),
          aes_key = coalesce(x.aes_key, devices.aes_key),
          latitude = coalesce(x.latitude, devices.latitude),
          longitude = coalesce(x.longitude, devices.longitude),
          position_source = case when x.latitude is null then devices.position_source else 'admin' end
        from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb)
          as x(id text, description text, tags jsonb, aes_key text, latitude double precision, longitude double precision)
        where devices.domain_id = ${domainId} and devices.id = x.id`.execute(db);
      return Number(result.numAffectedRows ?? 0n);
    },

    async updateDevice(domainId: string, deviceId: string, changes: DeviceChanges): Promise<boolean> {
      const set: Record<string, unknown> = {};
      if (changes.description !== undefined) set.description = changes.description;
      if (changes.tags !== undefined) set.tags = toJsonb(changes.tags);
      if (changes.aes_key !== undefined) set.aes_key = changes.aes_key;
      if (changes.position !== undefined) {
        set.latitude = changes.position?.latitude ?? null;
        set.longitude = changes.position?.longitude ?? null;
        set.position_source = changes.position === null ? null : "admin";
      }
      if (Object.keys(set).length === 0) {
        return (await this.findDevice(domainId, deviceId)) !== undefined;
      }
      const result = await db
        .updateTable("devices")
        .set(set)
        .where("domain_id", "=", domainId)
        .where("id", "=", deviceId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Adds tags to each device, keeping each device's own order and dropping duplicates. */
    async addTags(domainId: string, deviceIds: readonly string[], tags: readonly string[]): Promise<number> {
      const result = await db
        .updateTable("devices")
        .set({
          tags: sql`(select coalesce(jsonb_agg(tag order by first_at), '[]'::jsonb) from (
              select tag, min(at) as first_at
              from jsonb_array_elements_text(devices.tags || ${toJsonb(tags)}::jsonb) with ordinality as t(tag, at)
              group by tag) merged)`,
        })
        .where("domain_id", "=", domainId)
        .where("id", "in", deviceIds)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async removeTags(
      domainId: string,
      deviceIds: readonly string[],
      tags: readonly string[],
    ): Promise<number> {
      const result = await db
        .updateTable("devices")
        .set({
          tags: sql`(select coalesce(jsonb_agg(tag order by at), '[]'::jsonb)
              from jsonb_array_elements_text(devices.tags) with ordinality as t(tag, at)
              where not jsonb_exists(${toJsonb(tags)}::jsonb, tag))`,
        })
        .where("domain_id", "=", domainId)
        .where("id", "in", deviceIds)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async deleteDevices(domainId: string, deviceIds: readonly string[]): Promise<number> {
      if (deviceIds.length === 0) return 0;
      const result = await db
        .deleteFrom("devices")
        .where("domain_id", "=", domainId)
        .where("id", "in", deviceIds)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The latest collected state per type of one device. */
    async findCollects(domainId: string, deviceId: string): Promise<DeviceCollectRow[]> {
      return db
        .selectFrom("device_collects")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("device_id", "=", deviceId)
        .execute();
    },
  };
}

/** A devices repo bound to a transaction or the pool. */
export type DevicesRepo = ReturnType<typeof devicesRepo>;
