/** Query keys of the events feature. */
export const eventsKeys = {
  all: ["events"] as const,
  lists: () => [...eventsKeys.all, "list"] as const,
  list: (filter: { unread?: boolean }) => [...eventsKeys.lists(), "all", filter] as const,
  device: (deviceId: string) => [...eventsKeys.lists(), "device", deviceId] as const,
  unread: () => [...eventsKeys.all, "unread"] as const,
};
