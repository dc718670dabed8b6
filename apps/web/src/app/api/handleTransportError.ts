import { pushInfoMessage } from "../messages/messageStore";
import { notice, translateErrorCode } from "../messages/texts";
import { endSession } from "../session/endSession";
import { type ApiError, isApiError } from "./ApiError";
import { decideTransportAction, type ErrorTextFrame } from "./transportPolicy";

function framedText(frame: ErrorTextFrame, error: ApiError): string {
  const text = translateErrorCode(error.code, error.message);
  switch (frame) {
    case "plain":
      return text;
    case "connection":
      return notice("serverConnectionError", { text });
    case "network":
      return notice("serverCommunicationError");
    case "server":
      return notice("serverErrorAt", { path: error.path, text });
  }
}

/** The text a person is shown for a failed call, framed as the decision table says. */
export function apiErrorText(error: unknown): string {
  if (!isApiError(error)) return notice("serverCommunicationError");
  return framedText(decideTransportAction(error.status, error.code).frame, error);
}

/**
 * Applies the transport decision table to a failed call and answers the error for the caller
 * to throw. The only place in the web that turns a failed call into a logout or an info message.
 */
export function handleTransportError(error: ApiError, quiet: boolean): ApiError {
  const action = decideTransportAction(error.status, error.code);
  const text = framedText(action.frame, error);
  if (action.kind === "logout") {
    const wasSignedIn = endSession();
    if (wasSignedIn && !quiet) pushInfoMessage({ level: "critical", text });
  } else if (!quiet) {
    pushInfoMessage({ level: "warning", text });
  }
  return error;
}
