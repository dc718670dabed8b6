import { isApiError } from "../../app/api/ApiError";
import { apiErrorText } from "../../app/api/handleTransportError";
import { i18n } from "../../app/i18n";

/**
 * The text of a failed call that sends mail (a registration key, a password reset). The server
 * answers OPERATION_IS_NOT_SUPPORTED when it has no SMTP; "Operation is not supported" alone tells a
 * person nothing, so these forms say that e-mail is not configured on this server (issue 11).
 */
export function mailErrorText(error: unknown): string {
  if (isApiError(error) && error.code === "OPERATION_IS_NOT_SUPPORTED") return i18n.t("mail.notConfigured");
  return apiErrorText(error);
}
