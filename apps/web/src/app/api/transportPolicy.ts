/**
 * The transport-level error decision table of spec section 8, as one pure function.
 *
 * - 401, 403, 502: log out, go to /login, show the server's message;
 *   except a 403 whose code only says "not allowed" (see STAY_SIGNED_IN_CODES), which shows its text and stays.
 * - 500, 501: 'server connection error' plus the text.
 * - 400: the text looked up by code.
 * - 404: the object does not exist — its code's own text, without the path (issue 11); a read made
 *   by a query leaves it to the page (`MissingEntity`), so no message is raised.
 * - no answer at all (network down): 'server communication error'.
 * - anything else: 'server error' with the path plus the text.
 */

/** 403 codes that deny one action but leave the session valid (ADR: permission denials do not log out). */
export const STAY_SIGNED_IN_CODES: readonly string[] = [
  "PERMISSION_DENIED",
  "PERMISSIONS_DENIED",
  "ACCESS_DENIED",
  "DEMO_PERMISSIONS_DENIED",
];

/** How the message text is framed around the error's own text. */
export type ErrorTextFrame = "plain" | "connection" | "server" | "network";

export type TransportAction = { kind: "logout"; frame: "plain" } | { kind: "notify"; frame: ErrorTextFrame };

/** Status 0 means the request got no HTTP answer at all. */
export function decideTransportAction(status: number, code: string | null): TransportAction {
  if (status === 0) return { kind: "notify", frame: "network" };
  if (status === 403 && code !== null && STAY_SIGNED_IN_CODES.includes(code)) {
    return { kind: "notify", frame: "plain" };
  }
  if (status === 401 || status === 403 || status === 502) return { kind: "logout", frame: "plain" };
  if (status === 500 || status === 501) return { kind: "notify", frame: "connection" };
  if (status === 400 || status === 404) return { kind: "notify", frame: "plain" };
  return { kind: "notify", frame: "server" };
}
