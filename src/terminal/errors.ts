/** A failure the user can act on: printed as one sentence, never with a stack trace. */
export class UserError extends Error {
  override name = "UserError";
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** The exit code of a command used the wrong way (a bad option, an unknown exercise): not a failing test's 1. */
export const USAGE_EXIT = 2;

/** A command used the wrong way: one sentence, exit code 2. */
export class UsageError extends UserError {
  override name = "UsageError";
  constructor(message: string) {
    super(message, USAGE_EXIT);
  }
}
