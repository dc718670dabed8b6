import type { FileDto } from "@cellfleet/contract";
import type { ListSort } from "../../components/list-card";

/** Columns a file list sorts by. */
export const FILE_SORT_FIELDS = ["filename", "file_type", "size", "create_date", "user"] as const;
/** A sortable column of a file list. */
export type FileSortField = (typeof FILE_SORT_FIELDS)[number];

/** Newest first, as the server answers, until someone sorts. */
export const DEFAULT_FILE_SORT: ListSort = { field: "create_date", direction: "desc" };

function uploaderOf(file: FileDto): string {
  return file.metadata.user_name ?? file.metadata.user_id ?? "";
}

function sortValue(file: FileDto, field: string): string | number {
  switch (field) {
    case "size":
      return file.size;
    case "create_date":
      return file.create_date;
    case "file_type":
      return file.file_type;
    case "user":
      return uploaderOf(file).toLowerCase();
    default:
      return file.filename.toLowerCase();
  }
}

/**
 * The rows a file list shows: those whose name, type, checksum or uploader contains the search
 * (case aside), in the chosen order (ties by name). A common file list is short (a domain's
 * firmware and packages; a router's copies are capped at 100 a kind), so this is done here.
 */
export function filterAndSortFiles(
  files: readonly FileDto[],
  search: string,
  sort: ListSort | null,
): FileDto[] {
  const needle = search.trim().toLowerCase();
  const matching = needle
    ? files.filter((file) =>
        [file.filename, file.file_type, file.sha256, uploaderOf(file)].some((text) =>
          text.toLowerCase().includes(needle),
        ),
      )
    : [...files];
  const { field, direction } = sort ?? DEFAULT_FILE_SORT;
  const sign = direction === "asc" ? 1 : -1;
  return matching.sort((a, b) => {
    const left = sortValue(a, field);
    const right = sortValue(b, field);
    if (left < right) return -sign;
    if (left > right) return sign;
    return a.filename.localeCompare(b.filename);
  });
}
