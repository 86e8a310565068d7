// JSONPath for the interpreter: RFC 9535 via jsonpath-rfc9535, plus dotted paths (`items.0.name`).
// Simple paths run as plain member access (the same steps compiled code uses); each path is prepared once.
import { query } from 'jsonpath-rfc9535';
import parse from 'jsonpath-rfc9535/parser';
import { at, dot, one, prop, values } from './ops.ts';
import { parseSimple, type Step } from './simple.ts';

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

function prepare(path: string): Run {
  const simple = parseSimple(path);
  if (simple?.kind === 'dotted') {
    const { segs } = simple;
    return (data) => {
      let v = data;
      for (const s of segs) if ((v = dot(v, s)) === undefined) return [];
      return one(v);
    };
  }
  if (simple) return (data) => walk(simple.steps, 0, data, []);
  try {
    parse(path); // validate once; the library parses again per query
  } catch (e) {
    const err = new Error(`Invalid JSONPath ${JSON.stringify(path)}: ${(e as Error).message}`);
    return () => { throw err; };
  }
  return (data) => query(data as Parameters<typeof query>[0], path);
}

function walk(steps: Step[], i: number, v: unknown, out: unknown[]): unknown[] {
  for (; i < steps.length; i++) {
    const s = steps[i];
    if ('wildcard' in s) {
      for (const x of values(v)) walk(steps, i + 1, x, out);
      return out;
    }
    v = 'name' in s ? prop(v, s.name) : at(v, s.index);
    if (v === undefined) return out;
  }
  out.push(v);
  return out;
}
