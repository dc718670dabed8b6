/** Query keys of the software (firmware) rules: one root, so a save refreshes the list and the rule. */
export const softwareKeys = {
  all: ["software"] as const,
  list: () => [...softwareKeys.all, "list"] as const,
  rule: (id: string) => [...softwareKeys.all, "rule", id] as const,
  /** The rule's newest rollout ({ rollout: … | null }). */
  rollout: (ruleId: string) => [...softwareKeys.rule(ruleId), "rollout"] as const,
};
