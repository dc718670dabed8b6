/** Query keys of the schedule rules feature. */
export const schedulesKeys = {
  all: ["schedules"] as const,
  list: () => [...schedulesKeys.all, "list"] as const,
  uptimeMail: () => [...schedulesKeys.all, "uptimeMail"] as const,
  rule: (type: string, id: string) => [...schedulesKeys.all, "rule", type, id] as const,
};
