import type { ColumnType } from "kysely";

// The tables of the second factor (0038, ADR 039); DB in schema.ts lists them.

type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;
/** bigint: node-postgres reads it as text, PGlite as a number; written as a number. */
type BigIntColumn = ColumnType<string | number, number | undefined, number>;

/** A person's TOTP secret, sealed with the platform's key; it counts once confirmed by a code. */
export interface UserTotpTable {
  user_id: string;
  secret_sealed: string;
  confirmed_at: NullableTimestamp;
  /** The RFC 6238 time step of the last code taken: a code of that step or an earlier one is a replay. */
  last_time_step: BigIntColumn;
  create_time: ColumnType<Date, Date | undefined, Date>;
}

/** A passkey or security key: its WebAuthn credential id and public key (base64url), signature counter. */
export interface UserPasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: BigIntColumn;
  transports: ColumnType<string[], string, string>;
  name: string;
  create_time: Timestamp;
  last_used_at: NullableTimestamp;
}

/** A recovery code by its SHA-256; used once. */
export interface UserRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: NullableTimestamp;
}

/** An open second step: of a sign-in (by its challenge token's hash) or of a passkey enrolment. */
export interface SecondFactorChallengesTable {
  key_hash: string;
  user_id: string;
  purpose: "sign_in" | "register";
  webauthn_challenge: ColumnType<string | null, string | null | undefined, string | null>;
  /** The device cookie the password step came with (its failures count there, ADR 016). */
  device_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  failed_attempts: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
}
