import { KEY_HEX_LENGTH, TAG_MAX_LENGTH, TAG_MIN_LENGTH } from "../constants";
import { isBlank, type ValidationResult } from "./keys";

/** Most characters of a generic text field (names, descriptions); our choice, the spec gives none. */
export const TEXT_MAX_LENGTH = 255;

/**
 * Fewest characters of a username. The spec gives two readings: "longer than 3" (message
 * 'N or more characters' with N = 4) and, in another list, "at least 3". We follow the first, so
 * "abc" is rejected and "abcd" accepted.
 */
export const USERNAME_MIN_LENGTH = 4;
/** Most characters of a username. */
export const USERNAME_MAX_LENGTH = 255;

/** Fewest characters of a device identifier; our choice, the spec says only "within count bounds". */
export const DEVICE_IDENT_MIN_LENGTH = 4;
/** Most characters of a device identifier; our choice, the spec says only "within count bounds". */
export const DEVICE_IDENT_MAX_LENGTH = 64;

/** Required: non-empty after trimming (spec section 5). */
export function validateRequired(value: string | null | undefined): ValidationResult<"required"> {
  return isBlank(value) ? "required" : null;
}

/** Generic text: at least 1 character after trimming and at most {@link TEXT_MAX_LENGTH}. */
export function validateText(value: string | null | undefined): ValidationResult<"required" | "textTooLong"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  return value.trim().length > TEXT_MAX_LENGTH ? "textTooLong" : null;
}

/** Username/login: required and at least {@link USERNAME_MIN_LENGTH} characters after trimming. */
export function validateUsername(
  value: string | null | undefined,
): ValidationResult<"required" | "usernameTooShort" | "textTooLong"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const text = value.trim();
  if (text.length < USERNAME_MIN_LENGTH) return "usernameTooShort";
  return text.length > USERNAME_MAX_LENGTH ? "textTooLong" : null;
}

// Letters of the Cyrillic block (U+0400..U+04FF without the sign U+0482 and the combining marks
// U+0483..U+0489), Latin letters, digits, underscore and hyphen.
const TAG_PATTERN = /^[0-9A-Za-z\u0400-\u0481\u048A-\u04FF_-]+$/;

/** Tag: 3 to 25 characters; only Cyrillic or Latin letters, digits, `_` and `-` (spec section 5). */
export function validateTag(
  value: string | null | undefined,
): ValidationResult<"required" | "tagTooShort" | "tagTooLong" | "tagChars"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const text = value.trim();
  if (text.length < TAG_MIN_LENGTH) return "tagTooShort";
  if (text.length > TAG_MAX_LENGTH) return "tagTooLong";
  return TAG_PATTERN.test(text) ? null : "tagChars";
}

// The spec lists letters, digits, _, -, @ and =. We add the space (full names such as "Иван Петров")
// and the dot (emails, IP addresses, versions such as 1.2.3), since the searches cover those fields.
const SEARCH_PATTERN = /^[\p{L}\p{Nd} ._@=-]*$/u;

/**
 * Search input: letters of any script, digits, spaces and `. _ - @ =`. Empty text is valid (it
 * clears the search).
 */
export function validateSearch(value: string | null | undefined): ValidationResult<"searchChars"> {
  if (value === null || value === undefined) return null;
  return SEARCH_PATTERN.test(value) ? null : "searchChars";
}

/** Device identifier: required; only Latin letters and digits, no separators; 4 to 64 characters. */
export function validateDeviceIdent(
  value: string | null | undefined,
): ValidationResult<"required" | "identChars" | "identTooShort" | "identTooLong"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const text = value.trim();
  if (!/^[0-9A-Za-z]+$/.test(text)) return "identChars";
  if (text.length < DEVICE_IDENT_MIN_LENGTH) return "identTooShort";
  return text.length > DEVICE_IDENT_MAX_LENGTH ? "identTooLong" : null;
}

/** Options of {@link validateHexKey}. */
export interface HexKeyOptions {
  /** A device's AES key may be left empty; a licence key may not. */
  allowEmpty?: boolean;
}

const HEX_KEY_PATTERN = new RegExp(`^[0-9A-Fa-f]{${KEY_HEX_LENGTH}}$`);

/** AES or licence key: exactly 64 hexadecimal characters, either case; empty only with `allowEmpty`. */
export function validateHexKey(
  value: string | null | undefined,
  options: HexKeyOptions = {},
): ValidationResult<"required" | "keyInvalid"> {
  if (value === null || value === undefined || isBlank(value)) return options.allowEmpty ? null : "required";
  return HEX_KEY_PATTERN.test(value.trim()) ? null : "keyInvalid";
}
