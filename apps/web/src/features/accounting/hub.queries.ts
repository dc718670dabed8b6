import { queryOptions } from "@tanstack/react-query";
import { getLicenses } from "../licenses/licenses.queries";
import { getDomains } from "./domains/domains.queries";
import { accountingKeys } from "./keys";
import { getPolicies } from "./policies/policies.queries";
import { getSuperusers } from "./superusers/superusers.queries";
import { getUsers } from "./users/users.queries";

const COUNTERS: Record<string, (signal?: AbortSignal) => Promise<number>> = {
  domains: async (signal) => (await getDomains({}, signal)).length,
  superusers: async (signal) => (await getSuperusers({}, signal)).length,
  users: async (signal) => (await getUsers({}, signal)).items.length,
  policies: async (signal) => (await getPolicies({}, signal)).length,
  licenses: async (signal) => (await getLicenses(signal)).items.length,
};

/**
 * The counts on the hub's cards, one list call per visible section (the log has no cheap count).
 * A section whose call fails simply shows no count.
 */
export function hubCountsQueryOptions(entries: readonly string[]) {
  return queryOptions({
    queryKey: accountingKeys.hub(entries),
    queryFn: async ({ signal }) => {
      const counted = entries.filter((entry) => entry in COUNTERS);
      const results = await Promise.allSettled(counted.map((entry) => COUNTERS[entry]?.(signal)));
      const counts: Record<string, number> = {};
      results.forEach((result, index) => {
        const entry = counted[index];
        if (entry && result.status === "fulfilled" && typeof result.value === "number")
          counts[entry] = result.value;
      });
      return counts;
    },
  });
}
