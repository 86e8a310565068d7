// JSONPath for the interpreter: RFC 9535 via json-p3 (runtime/jsonpath/env.ts), plus dotted paths
// (`items.0.name`). Each path is parsed once.
import { jsonpath } from 'json-p3';
import { depthError, env, errorText, isJsonPath } from './env.ts';
import { dot, one } from './ops.ts';

type Run = (data: unknown) => unknown[];

const prepared = new Map<string, Run>();
const MAX_PREPARED = 1000;

/** All matches of a JSONPath (`$...`) or dotted path in data; throws on an invalid JSONPath. */
export function jsonPathAll(path: string, data: unknown): unknown[] {
  let run = prepared.get(path);
  if (!run) {
    run = prepare(path);
    if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value!);
    prepared.set(path, run);
  }
  return run(data);
}

/** The first match, or undefined when there is none. */
export function jsonPathFirst(path: string, data: unknown): unknown {
  return jsonPathAll(path, data)[0];
}

/** Segments of a dotted path (text not starting with `$`). */
export const dottedSegments = (src: string): string[] => {
  const body = src.startsWith('.') ? src.slice(1) : src;
  return body === '' ? [] : body.split('.');
};

function prepare(path: string): Run {
  if (!isJsonPath(path)) {
    const segs = dottedSegments(path);
    return (data) => {
      let v = data;
      for (const s of segs) if ((v = dot(v, s)) === undefined) return [];
      return one(v);
    };
  }
  let q: ReturnType<typeof env.compile>;
  try {
    q = env.compile(path);
  } catch (e) {
    const err = new Error(`Invalid JSONPath ${JSON.stringify(path)}: ${errorText(e)}`);
    return () => { throw err; };
  }
  return (data) => {
    try {
      return q.query(data as never).values();
    } catch (e) {
      throw e instanceof jsonpath.JSONPathRecursionLimitError ? depthError() : e;
    }
  };
}
