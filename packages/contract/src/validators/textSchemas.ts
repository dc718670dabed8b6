// The text validators as zod schemas, apart from text.ts so that a module wanting only the plain
// validators (the web at start-up) does not bring zod along (ADR 018).
import { keyedString } from "./shared";
import {
  validateDeviceIdent,
  validateHexKey,
  validateSearch,
  validateTag,
  validateText,
  validateUsername,
} from "./text";

/** A required, trimmed text of at most {@link TEXT_MAX_LENGTH} characters. */
export const RequiredTextSchema = keyedString(validateText);
/** A username, trimmed; see {@link validateUsername}. */
export const UsernameSchema = keyedString(validateUsername);
/** A tag, trimmed; see {@link validateTag}. */
export const TagSchema = keyedString(validateTag);
/** A search text, trimmed; see {@link validateSearch}. */
export const SearchSchema = keyedString(validateSearch);
/** A device identifier, trimmed; see {@link validateDeviceIdent}. */
export const DeviceIdentSchema = keyedString(validateDeviceIdent);
/** A licence key: exactly 64 hexadecimal characters, trimmed. */
export const HexKeySchema = keyedString((value) => validateHexKey(value));
/** A device's AES key: empty, or exactly 64 hexadecimal characters; trimmed. */
export const DeviceKeySchema = keyedString((value) => validateHexKey(value, { allowEmpty: true }));
