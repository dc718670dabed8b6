/** Query keys of the settings feature. */
export const settingsKeys = {
  all: ["settings"] as const,
  domain: () => [...settingsKeys.all, "domain"] as const,
  eventTypes: () => [...settingsKeys.all, "eventTypes"] as const,
  rolloutOffers: () => [...settingsKeys.all, "rolloutOffers"] as const,
};
