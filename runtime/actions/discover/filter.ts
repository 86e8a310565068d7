// include / exclude (spec: DiscoverFilter): regexes on `name`, `image` and `namespace`, run on the
// linear-time engine every config regex uses. All set fields must match; an unset field matches
// everything, a field the member lacks never matches. Include first, then exclude: exclusion wins.
import { cachedRegex, type LinearRegex } from '../../values/regex.ts';
import { DiscoverError } from './error.ts';
import type { Found } from './member.ts';

const FIELDS = ['name', 'image', 'namespace'] as const;
type Filter = Array<[field: (typeof FIELDS)[number], re: LinearRegex]>;

function regex(pattern: string, at: string): LinearRegex {
  const re = cachedRegex(pattern);
  if (typeof re === 'string') throw new DiscoverError(`${at}: ${re}`, 'config');
  return re;
}

function filterOf(v: unknown, which: 'include' | 'exclude'): Filter | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new DiscoverError(`${which} must be a mapping of name, image or namespace to a regex`, 'config');
  const o = v as Record<string, unknown>;
  const out: Filter = [];
  for (const f of FIELDS) {
    if (o[f] === undefined || o[f] === null) continue;
    if (typeof o[f] !== 'string') throw new DiscoverError(`${which}.${f} must be a regex string`, 'config');
    out.push([f, regex(o[f], `${which}.${f}`)]);
  }
  return out;
}

const matches = (m: Found, f: Filter): boolean => f.every(([field, re]) => m[field] !== undefined && re.test(m[field]));

/** Whether a member is kept by the action's include and exclude filters (an empty exclude drops nothing). */
export function memberFilter(include: unknown, exclude: unknown): (m: Found) => boolean {
  const inc = filterOf(include, 'include');
  const exc = filterOf(exclude, 'exclude');
  return (m) => (!inc || matches(m, inc)) && !(exc?.length && matches(m, exc));
}
