import type { IncomingMessage, ServerResponse } from "node:http";

/** How long the rest of a refused body is read and dropped after the answer has gone. */
export const REFUSED_BODY_LINGER_MS = 2_000;

/**
 * A request is answered (a refusal) before its body has all arrived. Closing the connection with
 * the answer would reset a sender still writing: the unread rest makes the kernel send RST, which
 * can reach the sender before it has read the answer, so it sees "connection reset" instead of the
 * refusal. The rest is read and dropped instead; once the answer has gone, a sender that has not
 * finished within `REFUSED_BODY_LINGER_MS` has its connection closed (nothing without bound).
 */
export function dropRestOfBody(
  request: IncomingMessage,
  response: ServerResponse,
  lingerMs = REFUSED_BODY_LINGER_MS,
): void {
  request.resume();
  if (request.complete) return;
  response.once("finish", () => {
    if (request.complete) return;
    // Destroying a request whose body has not all arrived closes its connection.
    const timer = setTimeout(() => request.destroy(), lingerMs);
    timer.unref();
    request.once("end", () => clearTimeout(timer));
    request.socket?.once("close", () => clearTimeout(timer));
  });
}
