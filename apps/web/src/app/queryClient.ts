import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "./api/ApiError";
import { onSessionEnd } from "./session/endSession";

/** Errors the server means (4xx) are not retried; a dropped connection is retried once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// A session that ends drops every cached query (spec section 4).
onSessionEnd(() => queryClient.clear());
