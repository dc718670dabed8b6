import type { FileDto } from "@cellfleet/contract";
import type { FileRow } from "../../platform/db/schema";

/** A file row with its uploader's login: what the DTO is made of. */
export type FileDtoRow = FileRow & { user_name: string | null };

/** The one mapping of a file row to what the API answers. */
export function toFileDto(row: FileDtoRow): FileDto {
  return {
    _id: row.id,
    filename: row.filename,
    file_type: row.file_type,
    size: Number(row.size),
    sha256: row.sha256,
    create_date: row.create_time.getTime(),
    status: row.status,
    metadata: {
      user_id: row.user_id,
      user_name: row.user_name,
      device_id: row.device_id,
      command_id: row.command_id,
      execution_id: row.execution_id,
    },
    repeats: row.repeats,
    repeat_date: row.repeat_time ? row.repeat_time.getTime() : null,
  };
}
