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
