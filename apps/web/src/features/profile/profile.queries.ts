import {
  type Health,
  HealthSchema,
  type Profile,
  ProfileSchema,
  type ProfileUpdate,
  type SessionUser,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { refreshSession } from "../../app/session/session.api";
import { profileKeys } from "./keys";

/** POST /api/profile with no fields reads the signed-in person's own profile. */
export function getProfile(_vars: Record<string, never>, signal?: AbortSignal): Promise<Profile> {
  return apiRequest("POST /api/profile", { body: {}, schema: ProfileSchema, signal });
}

/** GET /api/health: the software version is shown on the profile page. */
export function getHealth(_vars: Record<string, never>, signal?: AbortSignal): Promise<Health> {
  return apiRequest("GET /api/health", { schema: HealthSchema, signal });
}

/** POST /api/profile with fields saves them and answers the updated profile. */
export function updateProfile(update: ProfileUpdate, options: { quiet?: boolean } = {}): Promise<Profile> {
  return apiRequest("POST /api/profile", { body: update, schema: ProfileSchema, quiet: options.quiet });
}

export function profileQueryOptions() {
  return queryOptions({ queryKey: profileKeys.detail(), queryFn: ({ signal }) => getProfile({}, signal) });
}

export function healthQueryOptions() {
  return queryOptions({
    queryKey: profileKeys.health(),
    queryFn: ({ signal }) => getHealth({}, signal),
    staleTime: 5 * 60_000,
  });
}

/** Saves name, email and phone; errors go through the transport's info messages. */
export function useUpdateProfileDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: Pick<ProfileUpdate, "full_name" | "email" | "phone">) => updateProfile(update),
    onSuccess: async (profile) => {
      queryClient.setQueryData(profileKeys.detail(), profile);
      await queryClient.invalidateQueries({ queryKey: profileKeys.all });
      // The toolbar caption shows the name from the session.
      await refreshSession().catch(() => null);
    },
  });
}

/**
 * Changes the password; the form shows errors next to its fields (quiet transport). Afterwards the
 * session is re-read, so a cleared factory password lets the person leave /profile.
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (password: NonNullable<ProfileUpdate["password"]>): Promise<SessionUser | null> => {
      const profile = await updateProfile({ password }, { quiet: true });
      queryClient.setQueryData(profileKeys.detail(), profile);
      return refreshSession();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
