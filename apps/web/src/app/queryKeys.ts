// Query keys that more than one feature reads or invalidates (devices, events, commands), in one
// module so the pages that share them fetch one small chunk. A feature's own keys stay in its keys.ts.
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

/** Query keys of the events feature. */
export const eventsKeys = {
  all: ["events"] as const,
  lists: () => [...eventsKeys.all, "list"] as const,
  list: (filter: { unread?: boolean }) => [...eventsKeys.lists(), "all", filter] as const,
  device: (deviceId: string) => [...eventsKeys.lists(), "device", deviceId] as const,
  unread: () => [...eventsKeys.all, "unread"] as const,
};

/** Query keys of the commands feature. */
export const commandsKeys = {
  all: ["commands"] as const,
  lists: () => [...commandsKeys.all, "list"] as const,
  list: (filter: { status?: string[]; type?: string[] }) => [...commandsKeys.lists(), filter] as const,
  detail: (id: string) => [...commandsKeys.all, "detail", id] as const,
  executions: (id: string) => [...commandsKeys.all, "executions", id] as const,
  reports: (filter: { device_id?: string }) => [...commandsKeys.all, "reports", filter] as const,
  report: (deviceId: string, reportId: string) =>
    [...commandsKeys.all, "report", deviceId, reportId] as const,
  types: () => [...commandsKeys.all, "types"] as const,
  waiting: () => [...commandsKeys.all, "waiting"] as const,
};
