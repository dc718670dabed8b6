import type { HistoryRange } from "@cellfleet/contract";

/** Query keys of the insight feature (signal history, SIM usage, connecting a router). */
export const insightKeys = {
  all: ["insight"] as const,
  signal: (deviceId: string, range: HistoryRange) => [...insightKeys.all, "signal", deviceId, range] as const,
  signals: (deviceId: string) => [...insightKeys.all, "signal", deviceId] as const,
  usage: (deviceId: string) => [...insightKeys.all, "usage", deviceId] as const,
  usages: () => [...insightKeys.all, "usage"] as const,
  connect: (deviceId: string) => [...insightKeys.all, "connect", deviceId] as const,
  plans: () => [...insightKeys.all, "plans"] as const,
  brokers: () => [...insightKeys.all, "brokers"] as const,
  declines: () => [...insightKeys.all, "declines"] as const,
};
