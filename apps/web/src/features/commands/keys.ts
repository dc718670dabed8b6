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
