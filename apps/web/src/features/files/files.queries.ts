import { type CommonFilesRequest, LIST_RELOAD_DELAY_MS } from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { deleteFiles, getFile, getFiles, renameFile } from "./files.api";
import { filesKeys } from "./keys";

export function filesListQueryOptions(request: CommonFilesRequest) {
  return queryOptions({
    queryKey: filesKeys.list(request),
    queryFn: ({ signal }) => getFiles(request, signal),
  });
}

export function fileQueryOptions(id: string) {
  return queryOptions({
    queryKey: filesKeys.detail(id),
    queryFn: ({ signal }) => getFile(id, signal),
  });
}

/** Every list and page of files is read again (after an upload, a rename, a delete). */
export function useInvalidateFiles() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: filesKeys.all });
}

/** Deletes files; the lists reload 1.5 s later (spec section 4), once the row is surely gone. */
export function useDeleteFiles() {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: (ids: readonly string[]) => deleteFiles(ids),
    onSuccess: () => {
      setTimeout(() => void invalidate(), LIST_RELOAD_DELAY_MS);
    },
  });
}

export function useRenameFile(id: string) {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: (filename: string) => renameFile(id, filename),
    onSuccess: () => invalidate(),
  });
}
