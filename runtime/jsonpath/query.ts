// JSONPath for the interpreter: RFC 9535 via json-p3 (runtime/jsonpath/env.ts), plus dotted paths
// (`items.0.name`). Each path is parsed once.
import { jsonpath } from 'json-p3';
import { depthError, env, errorText, isJsonPath } from './env.ts';
import { dot, one } from './ops.ts';

type Run = (data: unknown) => unknown[];
/** A match and its location: the keys (array indices as numbers) from the root to it. */
export interface Place { v: unknown; at: Array<string | number> }
type RunPlaces = (data: unknown) => Place[];

const prepared = new Map<string, Run>();
const preparedPlaces = new Map<string, RunPlaces>();
const MAX_PREPARED = 1000;

/** All matches of a JSONPath (`$...`) or dotted path in data; throws on an invalid JSONPath. */
export function jsonPathAll(path: string, data: unknown): unknown[] {
  return cached(prepared, path, prepare)(data);
}

/** All matches with their locations (a transform's `target` changes the places it selects, which
 *  the values alone cannot name when one object sits at several places). */
export function jsonPathPlaces(path: string, data: unknown): Place[] {
  return cached(preparedPlaces, path, preparePlaces)(data);
}

function cached<R>(cache: Map<string, R>, path: string, make: (path: string) => R): R {
  let run = cache.get(path);
  if (!run) {
    run = make(path);
    if (cache.size >= MAX_PREPARED) cache.delete(cache.keys().next().value!);
    cache.set(path, run);
  }
  return run;
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
  const q = compiled(path);
  return (data) => query(q, data).values();
}

function preparePlaces(path: string): RunPlaces {
  if (!isJsonPath(path)) {
    const segs = dottedSegments(path);
    return (data) => {
      let v = data;
      const at: Place['at'] = [];
      for (const s of segs) {
        // dot() reads a numeric segment of an array as an index, negative from the end
        at.push(Array.isArray(v) ? (Number(s) < 0 ? v.length + Number(s) : Number(s)) : s);
        if ((v = dot(v, s)) === undefined) return [];
      }
      return [{ v, at }];
    };
  }
  const q = compiled(path);
  return (data) => query(q, data).nodes.map((n) => ({ v: n.value, at: n.location }));
}

type Query = ReturnType<typeof env.compile>;

/** The parsed path, or a query that throws the parse error each time it runs. */
function compiled(path: string): Query | Error {
  try {
    return env.compile(path);
  } catch (e) {
    return new Error(`Invalid JSONPath ${JSON.stringify(path)}: ${errorText(e)}`);
  }
}

function query(q: Query | Error, data: unknown): ReturnType<Query['query']> {
  if (q instanceof Error) throw q;
  try {
    return q.query(data as never);
  } catch (e) {
    throw e instanceof jsonpath.JSONPathRecursionLimitError ? depthError() : e;
  }
}
