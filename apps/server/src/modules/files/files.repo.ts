import type { CommonFileType, DeviceFileType, FileType } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB, FileRow, NewFileRow } from "../../platform/db/schema";
import type { FileDtoRow } from "./files.mapper";

/** Columns of a file's DTO, with the uploader's login from users. */
const DTO_COLUMNS = [
  "files.id",
  "files.domain_id",
  "files.file_type",
  "files.filename",
  "files.size",
  "files.sha256",
  "files.status",
  "files.user_id",
  "files.device_id",
  "files.command_id",
  "files.execution_id",
  "files.repeats",
  "files.repeat_time",
  "files.create_time",
  "users.username as user_name",
] as const;

/** What a device's files table, the dashboard and retention need of one copy. */
export type DeviceCopyRow = Pick<FileRow, "id" | "status" | "sha256" | "create_time">;
/** A copy with the schedule rule that made it, as retention groups them. */
export type DeviceCopyWithRuleRow = Pick<FileRow, "id" | "status"> & {
  rule_id: string | null;
  rule_copies: number | null;
};

/** Which files a list shows: a router's (of one type, of one command) or the common ones (no router). */
export interface FileScope {
  deviceId: string | null;
  fileType?: FileType;
  commandId?: string;
}

/** Files of a domain: every function takes the domain id first and filters by it. */
export function filesRepo(db: Kysely<DB>) {
  const dtoQuery = (domainId: string) =>
    db
      .selectFrom("files")
      .leftJoin("users", "users.id", "files.user_id")
      .select(DTO_COLUMNS)
      .where("files.domain_id", "=", domainId);

  /** A router's copies of one type, newest first (ties by id, so "newest" is never ambiguous). */
  const copiesQuery = (domainId: string, deviceId: string, fileType: DeviceFileType) =>
    db
      .selectFrom("files")
      .select(["id", "status", "sha256", "create_time"])
      .where("domain_id", "=", domainId)
      .where("device_id", "=", deviceId)
      .where("file_type", "=", fileType)
      .orderBy("create_time", "desc")
      .orderBy("id", "desc");

  return {
    /** Common files (none belongs to a router), of one type or all, newest first. */
    async listCommonFiles(domainId: string, fileType?: CommonFileType): Promise<FileDtoRow[]> {
      let query = dtoQuery(domainId).where("files.device_id", "is", null);
      if (fileType) query = query.where("files.file_type", "=", fileType);
      return query.orderBy("files.create_time", "desc").orderBy("files.id").execute();
    },

    /** A router's files, of one type or all, and of one command when given, newest first. */
    async listDeviceFiles(
      domainId: string,
      deviceId: string,
      filter: { fileType?: DeviceFileType; commandId?: string },
    ): Promise<FileDtoRow[]> {
      let query = dtoQuery(domainId).where("files.device_id", "=", deviceId);
      if (filter.fileType) query = query.where("files.file_type", "=", filter.fileType);
      if (filter.commandId) query = query.where("files.command_id", "=", filter.commandId);
      return query.orderBy("files.create_time", "desc").orderBy("files.id").execute();
    },

    /**
     * The page after the file `after` (an id) of a scope, newest first and ties by id: exports walk
     * by keyset. The cursor's time is read back from its row (a JS Date would cut microseconds).
     */
    async listFilesAfter(
      domainId: string,
      scope: FileScope,
      after: string | null,
      limit: number,
    ): Promise<FileDtoRow[]> {
      let query = dtoQuery(domainId).where(
        "files.device_id",
        scope.deviceId === null ? "is" : "=",
        scope.deviceId,
      );
      if (scope.fileType) query = query.where("files.file_type", "=", scope.fileType);
      if (scope.commandId) query = query.where("files.command_id", "=", scope.commandId);
      if (after !== null) {
        const cursor = sql`(select k.create_time from files k where k.domain_id = ${domainId} and k.id = ${after})`;
        query = query.where(
          sql<boolean>`(files.create_time < ${cursor} or (files.create_time = ${cursor} and files.id > ${after}))`,
        );
      }
      return query.orderBy("files.create_time", "desc").orderBy("files.id").limit(limit).execute();
    },

    async findFile(domainId: string, fileId: string): Promise<FileDtoRow | undefined> {
      return dtoQuery(domainId).where("files.id", "=", fileId).executeTakeFirst();
    },

    /** The files of these ids that the domain holds, locked until the transaction ends. */
    async lockFiles(domainId: string, fileIds: readonly string[]): Promise<FileRow[]> {
      if (fileIds.length === 0) return [];
      return db
        .selectFrom("files")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "in", fileIds)
        .orderBy("id")
        .forUpdate()
        .execute();
    },

    /** Whether a common file of this type already has this name (case aside). */
    async hasCommonFileNamed(domainId: string, fileType: FileType, filename: string): Promise<boolean> {
      const row = await db
        .selectFrom("files")
        .select("id")
        .where("domain_id", "=", domainId)
        .where("device_id", "is", null)
        .where("file_type", "=", fileType)
        .where(sql<string>`lower(filename)`, "=", filename.toLowerCase())
        .executeTakeFirst();
      return row !== undefined;
    },

    async insertFile(domainId: string, row: Omit<NewFileRow, "domain_id">): Promise<void> {
      await db
        .insertInto("files")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    async renameFile(domainId: string, fileId: string, filename: string): Promise<void> {
      await db
        .updateTable("files")
        .set({ filename })
        .where("domain_id", "=", domainId)
        .where("id", "=", fileId)
        .execute();
    },

    async deleteFiles(domainId: string, fileIds: readonly string[]): Promise<number> {
      if (fileIds.length === 0) return 0;
      const result = await db
        .deleteFrom("files")
        .where("domain_id", "=", domainId)
        .where("id", "in", fileIds)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Every copy of one type a router holds, newest first: what retention decides over. */
    async listDeviceCopies(
      domainId: string,
      deviceId: string,
      fileType: DeviceFileType,
    ): Promise<DeviceCopyRow[]> {
      return copiesQuery(domainId, deviceId, fileType).execute();
    },

    /**
     * Every copy of one type a router holds, newest first, with the schedule rule whose command
     * made it and that rule's copies (null for a person's command or a rule since removed).
     */
    async listDeviceCopiesWithRule(
      domainId: string,
      deviceId: string,
      fileType: DeviceFileType,
    ): Promise<DeviceCopyWithRuleRow[]> {
      return db
        .selectFrom("files")
        .leftJoin("commands as c", (join) =>
          join.onRef("c.id", "=", "files.command_id").on("c.domain_id", "=", domainId),
        )
        .leftJoin("schedule_rules as r", (join) =>
          join.onRef("r.id", "=", "c.schedule_rule_id").on("r.domain_id", "=", domainId),
        )
        .select(["files.id", "files.status", "r.id as rule_id", "r.copies as rule_copies"])
        .where("files.domain_id", "=", domainId)
        .where("files.device_id", "=", deviceId)
        .where("files.file_type", "=", fileType)
        .orderBy("files.create_time", "desc")
        .orderBy("files.id", "desc")
        .execute();
    },

    /** The router's newest completed copy of a type, or undefined. */
    async findNewestGoodCopy(
      domainId: string,
      deviceId: string,
      fileType: DeviceFileType,
    ): Promise<DeviceCopyRow | undefined> {
      return copiesQuery(domainId, deviceId, fileType)
        .where("status", "=", "completed")
        .limit(1)
        .executeTakeFirst();
    },

    /** Notes that a router sent this copy again unchanged. */
    async noteRepeat(domainId: string, fileId: string, at: Date): Promise<void> {
      await db
        .updateTable("files")
        .set((eb) => ({ repeats: eb("repeats", "+", 1), repeat_time: at }))
        .where("domain_id", "=", domainId)
        .where("id", "=", fileId)
        .execute();
    },

    /** Routers of the domain holding at least one copy of a type. */
    async findDevicesWithCopies(domainId: string, fileType: DeviceFileType): Promise<string[]> {
      const rows = await db
        .selectFrom("files")
        .select("device_id")
        .distinct()
        .where("domain_id", "=", domainId)
        .where("file_type", "=", fileType)
        .where("device_id", "is not", null)
        .execute();
      return rows.flatMap((row) => (row.device_id === null ? [] : [row.device_id]));
    },

    /** Ids of every file of these routers (their blobs go once the rows do). */
    async findDeviceFileIds(domainId: string, deviceIds: readonly string[]): Promise<string[]> {
      if (deviceIds.length === 0) return [];
      const rows = await db
        .selectFrom("files")
        .select("id")
        .where("domain_id", "=", domainId)
        .where("device_id", "in", deviceIds)
        .execute();
      return rows.map((row) => row.id);
    },

    /**
     * Recomputes the dashboard's backups and journals flags of routers from their completed copies,
     * so the facets and filters (plain columns, ADR 005) count real files.
     */
    async refreshDeviceFileFlags(domainId: string, deviceIds: readonly string[]): Promise<void> {
      if (deviceIds.length === 0) return;
      const hasGood = (fileType: DeviceFileType) =>
        sql<boolean>`exists (select 1 from files where files.domain_id = ${domainId}
          and files.device_id = devices.id and files.file_type = ${fileType}
          and files.status = 'completed')`;
      await db
        .updateTable("devices")
        .set({ has_backups: hasGood("backup"), has_journals: hasGood("journal") })
        .where("domain_id", "=", domainId)
        .where("id", "in", deviceIds)
        .execute();
    },

    /** The router (id and ident) of the domain, or undefined. */
    async findDevice(domainId: string, deviceId: string): Promise<{ id: string; ident: string } | undefined> {
      return db
        .selectFrom("devices")
        .select(["id", "ident"])
        .where("domain_id", "=", domainId)
        .where("id", "=", deviceId)
        .executeTakeFirst();
    },

    /** Locks the router's row, so retention runs for it one at a time. Answers whether it exists. */
    async lockDevice(domainId: string, deviceId: string): Promise<boolean> {
      const row = await db
        .selectFrom("devices")
        .select("id")
        .where("domain_id", "=", domainId)
        .where("id", "=", deviceId)
        .forUpdate()
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The copies kept per router of backups and journals (domain settings). */
    async findCopiesSetting(domainId: string): Promise<{ backup: number; journal: number } | undefined> {
      const row = await db
        .selectFrom("domains")
        .select("settings")
        .where("id", "=", domainId)
        .executeTakeFirst();
      if (!row) return undefined;
      return { backup: row.settings.backup.copies, journal: row.settings.journal.copies };
    },
  };
}

/** The files repo's type. */
export type FilesRepo = ReturnType<typeof filesRepo>;
