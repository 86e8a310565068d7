/** A jq compile or runtime error. `message` is jq's own text (what `try ... catch .` would see for strings). */
export class JqError extends Error {
  override name = 'JqError';
  constructor(
    message: string,
    /** 'compile': the program is invalid; 'runtime': it failed on this input. */
    readonly kind: 'compile' | 'runtime' = 'runtime',
    /** The value passed to `error(...)` (the message itself for type errors). */
    readonly value: unknown = message,
  ) {
    super(message);
  }
}
