import type { Kysely } from "kysely";
import type {
  DB,
  FileRow,
  FileTransferRow,
  FileTransferState,
  NewFileTransferRow,
} from "../../platform/db/schema";

/**
 * Uploads routers were told to make. A signed URL names only a file and a device, so the transfer
 * hooks read it before anyone knows the domain: those functions say `AcrossDomains`.
 */
export function fileTransfersRepo(db: Kysely<DB>) {
  return {
    async insertTransfer(domainId: string, row: Omit<NewFileTransferRow, "domain_id">): Promise<void> {
      await db
        .insertInto("file_transfers")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    async findTransferAcrossDomains(transferId: string): Promise<FileTransferRow | undefined> {
      return db.selectFrom("file_transfers").selectAll().where("id", "=", transferId).executeTakeFirst();
    },

    /** The transfer, locked until the transaction ends. */
    async lockTransfer(domainId: string, transferId: string): Promise<FileTransferRow | undefined> {
      return db
        .selectFrom("file_transfers")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", transferId)
        .forUpdate()
        .executeTakeFirst();
    },

    /**
     * Moves a transfer from one state to another, only if it is in `from` (one statement, so two
     * requests racing for one upload URL cannot both take it). Answers whether it moved.
     */
    async moveTransfer(
      domainId: string,
      transferId: string,
      from: FileTransferState,
      to: { state: FileTransferState; error?: string | null; file_id?: string; finish_time?: Date },
    ): Promise<boolean> {
      const result = await db
        .updateTable("file_transfers")
        .set(to)
        .where("domain_id", "=", domainId)
        .where("id", "=", transferId)
        .where("state", "=", from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** A file with its domain, before anyone knows the domain (a download URL names only the id). */
    async findFileAcrossDomains(
      fileId: string,
    ): Promise<Pick<FileRow, "id" | "domain_id" | "status" | "device_id"> | undefined> {
      return db
        .selectFrom("files")
        .select(["id", "domain_id", "status", "device_id"])
        .where("id", "=", fileId)
        .executeTakeFirst();
    },

    /** The domain of a device, before anyone knows it (a URL names only the device). */
    /**
     * The ready software rule whose stored file is `key` (root's firmware, no domain: ADR 021), with
     * what a download names; a rollout's fw_update command carries that key as its file.
     */
    async findSoftwareFile(
      key: string,
    ): Promise<{ filename: string; size: string; sha256: string } | undefined> {
      const row = await db
        .selectFrom("software_rules")
        .select(["filename", "size", "sha256"])
        .where("file_key", "=", key)
        .where("status", "=", 2)
        .executeTakeFirst();
      if (!row?.filename || row.size === null || !row.sha256) return undefined;
      return { filename: row.filename, size: row.size, sha256: row.sha256 };
    },

    async findDeviceDomainAcrossDomains(deviceId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom("devices")
        .select("domain_id")
        .where("id", "=", deviceId)
        .executeTakeFirst();
      return row?.domain_id;
    },

    /**
     * Transfers past their expiry still waiting for a body, in every domain: the sweep marks them
     * expired and removes whatever a cut-off upload may have left under their key.
     */
    async findLapsedTransfersAcrossDomains(
      before: Date,
      limit: number,
    ): Promise<Pick<FileTransferRow, "id" | "domain_id">[]> {
      return db
        .selectFrom("file_transfers")
        .select(["id", "domain_id"])
        .where("state", "in", ["expected", "receiving"])
        .where("expires_at", "<", before)
        .orderBy("expires_at")
        .limit(limit)
        .execute();
    },

    /** Removes finished transfer records older than `before` (they only explain recent uploads). */
    async deleteFinishedTransfersAcrossDomains(before: Date): Promise<number> {
      const result = await db
        .deleteFrom("file_transfers")
        .where("state", "in", ["completed", "failed", "expired"])
        .where("create_time", "<", before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
