// A leaf of its own: the policy's rules (zod-free, ADR 018) and its schemas both read these.

/** Passwords are at most 255 characters, at least 8 by default (spec section 9). */
export const PASSWORD_MAX_LENGTH = 255;
export const PASSWORD_DEFAULT_MIN_LENGTH = 8;
