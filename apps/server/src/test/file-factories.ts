import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { FileStatus, FileType } from "@cellfleet/contract";
import { newStorageKey } from "../platform/storage/file-storage";
import { MULTIPART_CONTENT_TYPE, multipartBody, type TestPart } from "./multipart";
import type { TestApp } from "./test-app";

/** Uploads one file part through the API as a browser would (Token header, multipart body). */
export function postUpload(t: TestApp, url: string, token: string | undefined, part: TestPart) {
  return t.app.inject({
    method: "POST",
    url,
    headers: { ...(token ? { token } : {}), "content-type": MULTIPART_CONTENT_TYPE },
    payload: multipartBody([part]),
  });
}

/** Options of buildFile: the row's columns that matter to a test. */
export interface BuildFileOptions {
  fileType?: FileType;
  filename?: string;
  bytes?: Buffer;
  userId?: string | null;
  deviceId?: string | null;
  status?: FileStatus;
  createTime?: Date;
}

/** Stores a blob and its row straight away (a 'system' file, a router's old copy); answers the id. */
export async function buildFile(
  t: TestApp,
  domainId: string,
  options: BuildFileOptions = {},
): Promise<string> {
  const id = newStorageKey();
  const bytes = options.bytes ?? Buffer.from(`file ${id}\n`);
  await t.storage.put(id, Readable.from([bytes]));
  const fileType = options.fileType ?? "file";
  await t.db
    .insertInto("files")
    .values({
      id,
      domain_id: domainId,
      file_type: fileType,
      filename: options.filename ?? `${fileType}-${id.slice(0, 8)}.dat`,
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      status: options.status ?? "completed",
      user_id: options.userId === undefined ? "system" : options.userId,
      device_id: options.deviceId ?? null,
      create_time: options.createTime ?? t.clock.now(),
    })
    .execute();
  return id;
}
