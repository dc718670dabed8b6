import { isApiError } from "../../../app/api/ApiError";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { translateErrorCode } from "../../../app/messages/texts";

/** The text of a refused save: a known code by its contract text (DEVICE_ALREADY_EXIST…), else the transport's. */
export function serverErrorText(error: unknown): string | null {
  if (!error) return null;
  if (isApiError(error) && error.code) return translateErrorCode(error.code, error.message);
  return apiErrorText(error);
}
