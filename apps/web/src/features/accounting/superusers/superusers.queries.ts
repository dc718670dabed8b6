import { ManagerListAnswerSchema, type User } from "@cellfleet/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";
import { accountingKeys } from "../keys";

/** POST /api/superusers/: every superuser, narrowed by `search`. */
export async function getSuperusers(vars: { search?: string }, signal?: AbortSignal): Promise<User[]> {
  const answer = await apiRequest("POST /api/superusers/", {
    body: vars,
    schema: ManagerListAnswerSchema,
    signal,
  });
  return answer.items;
}

export function superuserListQueryOptions(search = "") {
  return queryOptions({
    queryKey: accountingKeys.superuserList(search),
    queryFn: ({ signal }) => getSuperusers(search ? { search } : {}, signal),
    placeholderData: keepPreviousData,
  });
}
