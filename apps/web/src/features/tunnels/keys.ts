/** Query keys of remote access (ADR 038). */
export const tunnelsKeys = {
  all: ["tunnels"] as const,
  list: () => [...tunnelsKeys.all, "list"] as const,
};
