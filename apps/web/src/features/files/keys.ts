import type { CommonFilesRequest } from "@cellfleet/contract";

/** Query keys of the files feature. */
export const filesKeys = {
  all: ["files"] as const,
  lists: () => [...filesKeys.all, "list"] as const,
  list: (request: CommonFilesRequest) => [...filesKeys.lists(), request ?? {}] as const,
  details: () => [...filesKeys.all, "detail"] as const,
  detail: (id: string) => [...filesKeys.details(), id] as const,
};
