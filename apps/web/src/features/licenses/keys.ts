/** Query keys of the licences feature. */
export const licenseKeys = {
  all: ["licenses"] as const,
  list: () => [...licenseKeys.all, "list"] as const,
  fingerprint: () => [...licenseKeys.all, "fingerprint"] as const,
};
