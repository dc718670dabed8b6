// The exit codes a script can rely on (README, "Command-line tool"). Each names one kind of outcome
// and never changes meaning.

export const EXIT = Object.freeze({
  /** Done. */
  OK: 0,
  /** Something this tool did not expect (a bug, an unreadable answer). */
  UNEXPECTED: 1,
  /** The command line is wrong: unknown command, missing argument, unreadable file. */
  USAGE: 2,
  /** Not signed in, or the token is unknown, revoked or expired (HTTP 401). */
  AUTH: 3,
  /** The token or its person may not do this, or not from this address (HTTP 403). */
  FORBIDDEN: 4,
  /** No such router, command, file or rollout, or not in the token's domain (HTTP 404). */
  NOT_FOUND: 5,
  /** The console refused the input (HTTP 400, 409, 413, 422). */
  REJECTED: 6,
  /** The console could not be reached or failed (network error, HTTP 5xx). */
  UNAVAILABLE: 7,
  /** The work ran but not all of it succeeded: a router failed a command, a CSV line was refused. */
  PARTIAL: 8,
});

/** An error that ends the command with a given exit code and a message for stderr. */
export class CliError extends Error {
  /**
   * @param {number} exitCode
   * @param {string} message
   * @param {string | undefined} [code] the console's error code (spec section 8), when it answered one
   */
  constructor(exitCode, message, code) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
    this.code = code;
  }
}

/**
 * The exit code of an HTTP status the console answered with.
 * @param {number} status
 */
export function exitCodeOfStatus(status) {
  if (status === 401) return EXIT.AUTH;
  if (status === 403) return EXIT.FORBIDDEN;
  if (status === 404) return EXIT.NOT_FOUND;
  if (status >= 500) return EXIT.UNAVAILABLE;
  if (status >= 400) return EXIT.REJECTED;
  return EXIT.UNEXPECTED;
}
