// Checks on a transform's arguments. The interpreter may hand over unvalidated YAML, so each
// transform checks the shape it relies on and fails with a TransformError naming itself.
import { TransformError } from '../types.ts';
import { Refused } from '../../refused.ts';
import { isObject, kindOf, splitPath, type Rec } from './path.ts';

/** A list of dotted paths, pre-split (so invalid paths fail before any data is touched). */
export function pathList(args: unknown, who: string): string[][] {
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))
    throw new TransformError(`${who}: expected a list of field names, got ${kindOf(args)}`);
  return args.map((a: string) => splitPath(a, who));
}

/** A map of name to name (rename, move). */
export function stringPairs(args: unknown, who: string): Array<[string, string]> {
  const ok = isObject(args) && Object.values(args).every((v) => typeof v === 'string' && v !== '');
  if (!ok) throw new TransformError(`${who}: expected a map of names to new names, got ${kindOf(args)}`);
  return Object.entries(args) as Array<[string, string]>;
}

export function objectArg(args: unknown, who: string): Rec {
  if (!isObject(args)) throw new TransformError(`${who}: expected an object, got ${kindOf(args)}`);
  return args;
}

export function fnArg<F extends (...a: any[]) => unknown>(args: unknown, who: string): F {
  if (typeof args !== 'function') throw new TransformError(`${who}: expected a compiled expression, got ${kindOf(args)}`);
  return args as F;
}

/** Runs compiled code (jq, paths, chains): a raw error from it becomes a TransformError. */
export function guard<T>(who: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw guarded(who, e);
  }
}

/** guard for code that may answer through a Promise (a jq leaf that may run a regex). */
export async function guardAsync<T>(who: string, f: () => T | Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw guarded(who, e);
  }
}

function guarded(who: string, e: unknown): Error {
  if (e instanceof TransformError) return e;
  // A refusal (a jq bound the request's data exceeded) keeps its status.
  if (e instanceof Refused) return new Refused(`${who}: ${e.message}`, e.status);
  return new TransformError(`${who}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}
