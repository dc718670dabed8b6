import type { DeviceListRequest } from "@cellfleet/contract";

/** Query keys of the devices feature. */
export const devicesKeys = {
  all: ["devices"] as const,
  lists: () => [...devicesKeys.all, "list"] as const,
  list: (request: DeviceListRequest) => [...devicesKeys.lists(), request] as const,
  details: () => [...devicesKeys.all, "detail"] as const,
  detail: (id: string) => [...devicesKeys.details(), id] as const,
  totals: () => [...devicesKeys.all, "totals"] as const,
  tags: () => [...devicesKeys.all, "tags"] as const,
};
