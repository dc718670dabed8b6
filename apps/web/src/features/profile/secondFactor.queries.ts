import type { SecondFactorEnrolled, SecondFactorStatus, TotpEnrolment } from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { refreshSession } from "../../app/session/session.api";
import { profileKeys } from "./keys";

/** POST /api/profile/second-factor: what the person has enrolled. */
export function getSecondFactorStatus(_vars: Record<string, never>, signal?: AbortSignal) {
  return apiRequest("POST /api/profile/second-factor", { body: {}, signal });
}

export function secondFactorQueryOptions() {
  return queryOptions({
    queryKey: profileKeys.secondFactor(),
    queryFn: ({ signal }) => getSecondFactorStatus({}, signal),
  });
}

/** Makes a passkey in this browser: the WebAuthn client is fetched on the first use (ADR 018). */
async function createPasskey(name: string): Promise<SecondFactorEnrolled> {
  const [{ startRegistration }, options] = await Promise.all([
    import("@simplewebauthn/browser"),
    apiRequest("POST /api/profile/second-factor/passkey/options", { body: {} }),
  ]);
  // biome-ignore lint/suspicious/noExplicitAny: the server's options are @simplewebauthn's own JSON.
  const credential = await startRegistration({ optionsJSON: options as any });
  return apiRequest("POST /api/profile/second-factor/passkey", {
    body: { name, credential: credential as unknown as Record<string, unknown> },
    quiet: true,
  });
}

/**
 * The saves of the second-factor card. Each one writes the answered status into the cache and
 * re-reads the session, so a person held on the profile page (ADR 039) is let go once enrolled.
 */
export function useSecondFactorActions() {
  const queryClient = useQueryClient();
  const settle = async (status: SecondFactorStatus) => {
    queryClient.setQueryData(profileKeys.secondFactor(), status);
    await refreshSession().catch(() => null);
  };
  const enrolled = async (answer: SecondFactorEnrolled) => {
    await settle(answer.status);
    return answer;
  };
  return {
    startTotp: useMutation({
      mutationFn: (): Promise<TotpEnrolment> =>
        apiRequest("POST /api/profile/second-factor/totp/start", { body: {} }),
    }),
    confirmTotp: useMutation({
      mutationFn: async (totp: string) =>
        enrolled(
          await apiRequest("POST /api/profile/second-factor/totp/confirm", { body: { totp }, quiet: true }),
        ),
    }),
    removeTotp: useMutation({
      mutationFn: async () =>
        settle(await apiRequest("DELETE /api/profile/second-factor/totp", { body: {} })),
    }),
    addPasskey: useMutation({ mutationFn: async (name: string) => enrolled(await createPasskey(name)) }),
    removePasskey: useMutation({
      mutationFn: async (passkeyId: string) =>
        settle(
          await apiRequest("DELETE /api/profile/second-factor/passkey/{passkeyId}", {
            params: { passkeyId },
            body: {},
          }),
        ),
    }),
    renewCodes: useMutation({
      mutationFn: async () =>
        enrolled(await apiRequest("POST /api/profile/second-factor/recovery-codes", { body: {} })),
    }),
  };
}
