import type { ErrorCode } from "../errors";

/**
 * Machine keys of form-validation messages. Validators answer one of these (or null when the value
 * is valid); the web looks the key up with `validationText` / `formErrorText` from messages.ts.
 */
export const VALIDATION_KEYS = [
  "required",
  "textTooLong",
  "usernameTooShort",
  "tagTooShort",
  "tagTooLong",
  "tagChars",
  "searchChars",
  "tinDigits",
  "phoneTooLong",
  "phoneInvalid",
  "emailInvalid",
  "emailListInvalid",
  "passwordsDoNotMatch",
  "roleRequired",
  "consentRequired",
  "statusMinutesRange",
  "statusMinutesAbovePrevious",
  "copiesRange",
  "countRange",
  "portRange",
  "idleMinutesRange",
  "maxMinutesRange",
  "bandwidthRange",
  "quotaRange",
  "recordingDaysRange",
  "checkDelayInvalid",
  "identChars",
  "identTooShort",
  "identTooLong",
  "keyInvalid",
  "noFile",
  "emptyFile",
  "tooLarge",
  "invalidFileType",
  "dictionaryEmpty",
  "patternMismatch",
  "urlInvalid",
  "hostInvalid",
  "timeInvalid",
  "daysRequired",
  "tagsRequired",
  "timeZoneInvalid",
] as const;

/** A form-validation message key. */
export type ValidationKey = (typeof VALIDATION_KEYS)[number];

/** What every validator answers: null when the value is valid, otherwise the key of its message. */
export type ValidationResult<K extends ValidationKey | ErrorCode = ValidationKey> = K | null;

/** A message a form may show: a validation key, or a server error code (the password checks answer those). */
export type FormError = ValidationKey | ErrorCode;

const KEY_SET: ReadonlySet<string> = new Set(VALIDATION_KEYS);

/** Whether a string is one of the validation keys. */
export function isValidationKey(value: unknown): value is ValidationKey {
  return typeof value === "string" && KEY_SET.has(value);
}

/** Whether a form value is empty: undefined, null, or only whitespace. */
export function isBlank(value: string | number | null | undefined): boolean {
  if (value === null || value === undefined) return true;
  return typeof value === "string" && value.trim().length === 0;
}

/**
 * Makes a validator of an optional field: an empty value is valid, anything else is judged by
 * `validate`. Example: `allowEmpty(validateEmail)` for the email of a user form.
 */
export function allowEmpty<K extends ValidationKey | ErrorCode>(
  validate: (value: string) => ValidationResult<K>,
): (value: string | null | undefined) => ValidationResult<K> {
  return (value) => (value === null || value === undefined || isBlank(value) ? null : validate(value));
}
