import {
  type CommonFilesRequest,
  type CommonFileType,
  DeleteFilesResultSchema,
  type FileDto,
  FileListSchema,
  FileSchema,
} from "@cellfleet/contract";
import { resolveRoute } from "../../app/api/apiRoute";
import { downloadCsvExport } from "../../app/api/csvExport";
import { apiDownload, apiRequest, apiUpload } from "../../app/api/http";

/** POST /api/commonfiles: common files (no body) or a router's files. */
export async function getFiles(request: CommonFilesRequest, signal?: AbortSignal): Promise<FileDto[]> {
  const answer = await apiRequest("POST /api/commonfiles", {
    body: request ? { ...request } : {},
    signal,
    schema: FileListSchema,
  });
  return answer.items;
}

/** POST /api/files/{id} without fields: one file. */
export function getFile(id: string, signal?: AbortSignal): Promise<FileDto> {
  return apiRequest("POST /api/files/{fileId}", { params: { fileId: id }, signal, schema: FileSchema });
}

/** POST /api/files/{id} with a name: renames a common file. */
export function renameFile(id: string, filename: string): Promise<FileDto> {
  return apiRequest("POST /api/files/{fileId}", {
    params: { fileId: id },
    body: { filename },
    schema: FileSchema,
    quiet: true,
  });
}

/** DELETE /api/file/many (one id: DELETE /api/file/{id}): admins only. */
export async function deleteFiles(ids: readonly string[]): Promise<number> {
  const answer =
    ids.length === 1
      ? await apiRequest("DELETE /api/file/{fileId}", {
          params: { fileId: ids[0] as string },
          schema: DeleteFilesResultSchema,
        })
      : await apiRequest("DELETE /api/file/many", {
          body: { targets: [...ids] },
          schema: DeleteFilesResultSchema,
        });
  return answer.deleted;
}

/** GET /api/file/{id}, saved under the file's own name. */
export function downloadFile(file: Pick<FileDto, "_id" | "filename">): Promise<void> {
  return apiDownload("GET /api/file/{fileId}", file.filename, { params: { fileId: file._id } });
}

/** POST /api/files/export: the list as CSV, saved as files.csv. */
export function exportFiles(request: CommonFilesRequest): Promise<void> {
  return downloadCsvExport("files", request ?? {});
}

/** Where a common file of a type is uploaded (spec section 7: POST /api/file/{kind}, or the base URL with a type). */
export function fileUploadPath(fileType: CommonFileType): string {
  return fileType === "bin"
    ? resolveRoute("POST /api/upload/{file_type}", { file_type: fileType }).path
    : resolveRoute("POST /api/file/{kind}", { kind: fileType }).path;
}

/** Uploads a common file to where its type goes ({@link fileUploadPath}), reporting bytes sent. */
export function uploadFile(
  fileType: CommonFileType,
  file: File,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<FileDto> {
  const options = { onProgress, signal, schema: FileSchema, quiet: true };
  return fileType === "bin"
    ? apiUpload("POST /api/upload/{file_type}", file, { params: { file_type: fileType }, ...options })
    : apiUpload("POST /api/file/{kind}", file, { params: { kind: fileType }, ...options });
}
