// The roots a marker reads from. Generated code and the interpreter both call these.
import type { Scope } from '../scope.ts';
import { at } from './get.ts';

export function body(s: Scope): unknown {
  return s.body;
}

export function rawBody(s: Scope): unknown {
  return s.rawBody;
}

export function params(s: Scope): unknown {
  return s.params;
}

export function headers(s: Scope): unknown {
  return s.headers;
}

export function param(s: Scope, name: string): unknown {
  return at(s.params, name);
}

/** Header names are case-insensitive: the request's are stored lower-cased. */
export function header(s: Scope, name: string): unknown {
  return at(s.headers, name.toLowerCase());
}

/** An action's record: its data (after post_transforms), or its status, headers or raw body. */
export function step(s: Scope, name: string, part: 'data' | 'status' | 'headers' | 'body'): unknown {
  const rec = at(s.steps, name) as Record<string, unknown> | undefined;
  if (!rec) return undefined;
  if (part === 'body') return rec.body !== undefined ? rec.body : rec.data;
  return rec[part];
}

export function state(s: Scope, key: string): unknown {
  return at(s.state, key);
}

export function secret(s: Scope, name: string): unknown {
  return s.env.secret(name);
}

export function variable(s: Scope, name: string): unknown {
  return s.env.variable(name);
}

export function envVar(s: Scope, name: string): unknown {
  return s.env.env(name);
}

/** The operator's value where a field takes structured data (Ref.json): text that is a JSON object
 *  or array is read as that value; anything else, or text that does not parse, stays text. Scalars
 *  stay text so a secret `0123` or an id past 2^53 is never turned into a number. */
export function secretData(s: Scope, name: string): unknown {
  return reparsed(s.env.secret(name));
}

export function variableData(s: Scope, name: string): unknown {
  return reparsed(s.env.variable(name));
}

export function envVarData(s: Scope, name: string): unknown {
  return reparsed(s.env.env(name));
}

const STRUCTURED = /^\s*[[{]/;

function reparsed(v: unknown): unknown {
  if (typeof v !== 'string' || !STRUCTURED.test(v)) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

export function uuid(s: Scope): string {
  return s.env.uuid();
}
