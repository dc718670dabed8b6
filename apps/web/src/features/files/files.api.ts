import {
  type CommonFilesRequest,
  DeleteFilesResultSchema,
  type FileDto,
  FileListSchema,
  FileSchema,
} from "@cellfleet/contract";
import { downloadCsvExport } from "../../app/api/csvExport";
import { apiDownload, apiRequest, apiUpload } from "../../app/api/http";

/** POST /api/commonfiles: common files (no body) or a router's files. */
export async function getFiles(request: CommonFilesRequest, signal?: AbortSignal): Promise<FileDto[]> {
  const answer = await apiRequest("/api/commonfiles", {
    body: request ? { ...request } : {},
    signal,
    schema: FileListSchema,
  });
  return answer.items;
}

/** POST /api/files/{id} without fields: one file. */
export function getFile(id: string, signal?: AbortSignal): Promise<FileDto> {
  return apiRequest(`/api/files/${encodeURIComponent(id)}`, { signal, schema: FileSchema });
}

/** POST /api/files/{id} with a name: renames a common file. */
export function renameFile(id: string, filename: string): Promise<FileDto> {
  return apiRequest(`/api/files/${encodeURIComponent(id)}`, {
    body: { filename },
    schema: FileSchema,
    quiet: true,
  });
}

/** DELETE /api/file/many (one id: DELETE /api/file/{id}): admins only. */
export async function deleteFiles(ids: readonly string[]): Promise<number> {
  const answer =
    ids.length === 1
      ? await apiRequest(`/api/file/${encodeURIComponent(ids[0] as string)}`, {
          method: "DELETE",
          schema: DeleteFilesResultSchema,
        })
      : await apiRequest("/api/file/many", {
          method: "DELETE",
          body: { targets: [...ids] },
          schema: DeleteFilesResultSchema,
        });
  return answer.deleted;
}

/** GET /api/file/{id}, saved under the file's own name. */
export function downloadFile(file: Pick<FileDto, "_id" | "filename">): Promise<void> {
  return apiDownload(`/api/file/${encodeURIComponent(file._id)}`, file.filename, { method: "GET" });
}

/** POST /api/files/export: the list as CSV, saved as files.csv. */
export function exportFiles(request: CommonFilesRequest): Promise<void> {
  return downloadCsvExport("files", request ?? {});
}

/** Uploads a common file to `path` (POST /api/file/{kind} or the base upload URL), reporting bytes sent. */
export function uploadFile(
  path: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<FileDto> {
  return apiUpload(path, file, { onProgress, signal, schema: FileSchema, quiet: true });
}
