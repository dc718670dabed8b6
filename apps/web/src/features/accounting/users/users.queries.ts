import {
  type AccountingUser,
  AccountingUserSchema,
  type CreateAccountingUser,
  type UpdateAccountingUser,
  type UserListAnswer,
  UserListAnswerSchema,
  type UserListRequest,
} from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";
import { accountingKeys } from "../keys";

/** POST /api/users/: the users the caller may see, narrowed by `search`. */
export function getUsers(vars: UserListRequest, signal?: AbortSignal): Promise<UserListAnswer> {
  return apiRequest("POST /api/users/", { body: { ...vars }, schema: UserListAnswerSchema, signal });
}

/** POST /api/user/{id} with no fields reads one user. */
export function getUser(vars: { id: string }, signal?: AbortSignal): Promise<AccountingUser> {
  return apiRequest("POST /api/user/{userId}", {
    params: { userId: vars.id },
    body: {},
    schema: AccountingUserSchema,
    signal,
  });
}

export function userListQueryOptions(search: string) {
  return queryOptions({
    queryKey: accountingKeys.userList(search),
    queryFn: ({ signal }) => getUsers(search ? { search } : {}, signal),
    placeholderData: keepPreviousData,
  });
}

export function userQueryOptions(id: string) {
  return queryOptions({
    queryKey: accountingKeys.user(id),
    queryFn: ({ signal }) => getUser({ id }, signal),
  });
}

/** Creates (id 'new') or changes a user; the form shows refusals next to its fields (quiet). */
export function useSaveUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccountingUser | UpdateAccountingUser) =>
      id === "new"
        ? apiRequest("POST /api/user/new", {
            body: body as CreateAccountingUser,
            schema: AccountingUserSchema,
            quiet: true,
          })
        : apiRequest("POST /api/user/{userId}", {
            params: { userId: id },
            body: body as UpdateAccountingUser,
            schema: AccountingUserSchema,
            quiet: true,
          }),
    onSuccess: (user) => {
      queryClient.setQueryData(accountingKeys.user(user._id), user);
      return queryClient.invalidateQueries({ queryKey: accountingKeys.all });
    },
  });
}

/** DELETE /api/user/{id}: superusers and admins only (helpers never see the button). */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest("DELETE /api/user/{userId}", { params: { userId: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountingKeys.all }),
  });
}

/** POST /api/user/{user_id}/second-factor/reset: removes a member's second factor (ADR 039). */
export function useResetSecondFactor() {
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest("POST /api/user/{userId}/second-factor/reset", { params: { userId }, body: {} }),
  });
}
