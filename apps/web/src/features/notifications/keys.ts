/** Query keys of the notifications feature: one root, so a save refreshes every list below it. */
export const notificationsKeys = {
  all: ["notifications"] as const,
  rules: () => [...notificationsKeys.all, "rules"] as const,
  ruleList: (search: string) => [...notificationsKeys.rules(), "list", search] as const,
  rule: (id: string) => [...notificationsKeys.rules(), "detail", id] as const,
  transports: () => [...notificationsKeys.all, "transports"] as const,
  transportList: () => [...notificationsKeys.transports(), "list"] as const,
  transport: (id: string) => [...notificationsKeys.transports(), "detail", id] as const,
  deliveries: () => [...notificationsKeys.all, "deliveries"] as const,
  deliveryList: (body: object) => [...notificationsKeys.deliveries(), "list", body] as const,
  news: () => [...notificationsKeys.all, "news"] as const,
};
