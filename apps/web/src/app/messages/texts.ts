import {
  errorText,
  type FormError,
  formErrorText,
  isErrorCode,
  type MessageParams,
  type NoticeKey,
  noticeText,
} from "@cellfleet/contract";
import { currentLocale } from "../i18n";

// The contract owns the texts of error codes, interface notices and form messages in both
// languages; these wrappers pick the current language so callers never pass it around.

/** The text of a server error code (spec section 8); an unknown code falls back to the server's message. */
export function translateErrorCode(code: string | null, fallback: string): string {
  return isErrorCode(code) ? errorText(code, currentLocale()) : fallback;
}

/** An interface message of spec section 8 ('Access denied', 'Information updated', …). */
export function notice(key: NoticeKey, params?: MessageParams): string {
  return noticeText(key, currentLocale(), params);
}

/** A form message: a validation key or a PASSWORD_* code answered by a contract validator. */
export function formError(error: FormError): string {
  return formErrorText(error, currentLocale());
}
