import type { LicenseActivationRequest } from "@cellfleet/contract";

/** How long the console waits for the vendor's service before calling it unreachable. */
export const LICENSE_REQUEST_TIMEOUT_MS = 10_000;
/** A licence document is small; a larger answer is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What the vendor's service answered: a body to verify, or why there is none. */
export type ActivationAnswer =
  | { kind: "answer"; body: unknown }
  | { kind: "failed"; error: "unreachable" | "server_error" | "answer_invalid" };

/** Asks `{serverUrl}/v1/activate`; never throws for the network's or the service's failures. */
export async function requestActivation(
  serverUrl: string,
  request: LicenseActivationRequest,
  signal: AbortSignal,
): Promise<ActivationAnswer> {
  let response: Response;
  try {
    response = await fetch(`${serverUrl}/v1/activate`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(request),
      signal: AbortSignal.any([signal, AbortSignal.timeout(LICENSE_REQUEST_TIMEOUT_MS)]),
      redirect: "error",
    });
  } catch {
    return { kind: "failed", error: "unreachable" };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { kind: "failed", error: "server_error" };
  }
  try {
    const text = await response.text();
    if (text.length > MAX_ANSWER_BYTES) return { kind: "failed", error: "answer_invalid" };
    return { kind: "answer", body: JSON.parse(text) };
  } catch {
    return { kind: "failed", error: "answer_invalid" };
  }
}
