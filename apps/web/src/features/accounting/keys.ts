/** Query keys of the accounting feature: one root, so a save can refresh every list and page below it. */
export const accountingKeys = {
  all: ["accounting"] as const,
  users: () => [...accountingKeys.all, "users"] as const,
  userList: (search: string) => [...accountingKeys.users(), "list", search] as const,
  user: (id: string) => [...accountingKeys.users(), "detail", id] as const,
  domains: () => [...accountingKeys.all, "domains"] as const,
  domainList: (search: string) => [...accountingKeys.domains(), "list", search] as const,
  domain: (id: string) => [...accountingKeys.domains(), "detail", id] as const,
  superusers: () => [...accountingKeys.all, "superusers"] as const,
  superuserList: (search: string) => [...accountingKeys.superusers(), "list", search] as const,
  superuser: (id: string) => [...accountingKeys.superusers(), "detail", id] as const,
  policies: () => [...accountingKeys.all, "policies"] as const,
  policyList: () => [...accountingKeys.policies(), "list"] as const,
  policy: (id: string) => [...accountingKeys.policies(), "detail", id] as const,
  logs: () => [...accountingKeys.all, "logs"] as const,
  logList: (since: number | null, until: number | null) => [...accountingKeys.logs(), since, until] as const,
  hub: (entries: readonly string[]) => [...accountingKeys.all, "hub", ...entries] as const,
};
