/** Query keys of the profile feature. */
export const profileKeys = {
  all: ["profile"] as const,
  detail: () => [...profileKeys.all, "detail"] as const,
  health: () => ["health"] as const,
  secondFactor: () => [...profileKeys.all, "secondFactor"] as const,
};
