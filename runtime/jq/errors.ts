// JqError and the jq error texts the runtime helpers raise.
import { dump, tojson, type } from './text.ts';

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

export function described(v: unknown): string {
  return `${type(v)} (${dump(v)})`;
}

export function fail(message: string): never {
  throw new JqError(message);
}

export function fail1(v: unknown, what: string): never {
  fail(`${described(v)} ${what}`);
}

export function fail2(a: unknown, b: unknown, what: string): never {
  fail(`${described(a)} and ${described(b)} ${what}`);
}

/** `error` / `error(msg)`: a string is the message as it is; other values are dumped. */
export function error(v: unknown): never {
  if (typeof v === 'string') throw new JqError(v, 'runtime', v);
  throw new JqError(`${tojson(v)} (not a string)`, 'runtime', v ?? null);
}

/** What `try ... catch` hands its handler: the value given to `error`, or the message. */
export function errorValue(e: unknown): unknown {
  return (e as JqError).value;
}

/** Rethrows anything that is not a jq error (bugs must not be swallowed by `?`). */
export function caught(e: unknown): void {
  if (!(e instanceof JqError)) throw e;
}

/** Thrown where compiled code meets a case it does not answer like jq: the whole call goes to the engine. */
export class Fallback extends Error {
  override name = 'Fallback';
}

export function fallback(): never {
  throw new Fallback('left to the jq engine');
}
