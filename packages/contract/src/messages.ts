import { DEFAULT_LOCALE, LOCALES, type Locale } from "./constants";
import { ERROR_CODES, type ErrorCode } from "./errors";
import { EN_ERROR_TEXTS, EN_NOTICE_TEXTS, EN_VALIDATION_TEXTS } from "./locales/en";
import { RU_ERROR_TEXTS, RU_NOTICE_TEXTS, RU_VALIDATION_TEXTS } from "./locales/ru";
import type { NoticeKey } from "./notices";
import { type FormError, isValidationKey, type ValidationKey } from "./validators/keys";

/** Texts of every server error code, per locale (the Record type makes each locale complete). */
export const ERROR_TEXTS: Readonly<Record<Locale, Readonly<Record<ErrorCode, string>>>> = {
  ru: RU_ERROR_TEXTS,
  en: EN_ERROR_TEXTS,
};

/** Texts of every form-validation key, per locale. */
export const VALIDATION_TEXTS: Readonly<Record<Locale, Readonly<Record<ValidationKey, string>>>> = {
  ru: RU_VALIDATION_TEXTS,
  en: EN_VALIDATION_TEXTS,
};

/** Texts of the interface messages of spec section 8, per locale. */
export const NOTICE_TEXTS: Readonly<Record<Locale, Readonly<Record<NoticeKey, string>>>> = {
  ru: RU_NOTICE_TEXTS,
  en: EN_NOTICE_TEXTS,
};

const UNKNOWN_ERROR_TEXTS: Readonly<Record<Locale, string>> = {
  ru: "Неизвестная ошибка: {code}",
  en: "Unknown error: {code}",
};

/** Values for the `{placeholders}` of a message. */
export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * Fills a message's `{placeholders}` from `params`. A placeholder without a value is dropped with
 * the space and empty brackets around it, so "Файл {name} пуст" reads "Файл пуст".
 */
export function formatMessage(template: string, params: MessageParams = {}): string {
  let missing = false;
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) missing = true;
    return value === undefined ? "" : String(value);
  });
  if (!missing) return filled;
  return filled
    .replace(/\(\s*\)/g, "")
    .replace(/\s+([,.:;!?)])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .replace(/[\s:]+$/, "")
    .trim();
}

/** A supported locale from a cookie or header value (`ru`, `en-US`, ...); anything else is the default. */
export function resolveLocale(value: string | null | undefined): Locale {
  const language = (value ?? "").trim().slice(0, 2).toLowerCase();
  return LOCALES.find((locale) => locale === language) ?? DEFAULT_LOCALE;
}

const ERROR_CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether a value (such as the `code` of an error answer) is a known server error code. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && ERROR_CODE_SET.has(value);
}

/** The text of a server error code in a locale; an unknown code gets "Unknown error: {code}". */
export function errorText(code: ErrorCode | (string & {}), locale: Locale = DEFAULT_LOCALE): string {
  const lang = resolveLocale(locale);
  if (isErrorCode(code)) return ERROR_TEXTS[lang][code];
  return formatMessage(UNKNOWN_ERROR_TEXTS[lang], { code });
}

/** The text of a form-validation key in a locale; the file keys take `{ name }`. */
export function validationText(
  key: ValidationKey,
  locale: Locale = DEFAULT_LOCALE,
  params?: MessageParams,
): string {
  return formatMessage(VALIDATION_TEXTS[resolveLocale(locale)][key], params);
}

/** The text of whatever a validator answered: a validation key or a PASSWORD_* (or other) error code. */
export function formErrorText(
  error: FormError,
  locale: Locale = DEFAULT_LOCALE,
  params?: MessageParams,
): string {
  return isValidationKey(error) ? validationText(error, locale, params) : errorText(error, locale);
}

/** The text of an interface message in a locale, with its `{placeholders}` filled. */
export function noticeText(key: NoticeKey, locale: Locale = DEFAULT_LOCALE, params?: MessageParams): string {
  return formatMessage(NOTICE_TEXTS[resolveLocale(locale)][key], params);
}
