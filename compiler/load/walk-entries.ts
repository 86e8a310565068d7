// Every key/value pair of a config at any depth, with its path and its parent's key (a generic walk
// for lints keyed by field name, such as durations and regexes). Depth-bounded: configs are data.
import { isObj, type Obj } from './walk.ts';
import type { ConfigPath } from '../source/yaml.ts';

export interface Entry {
  key: string;
  value: unknown;
  parent: Obj;
  /** The key holding `parent`, or undefined at the top or inside a list. */
  parentKey: string | undefined;
  path: ConfigPath;
}

const MAX_DEPTH = 64;

export function forEachEntry(value: unknown, visit: (e: Entry) => void, path: ConfigPath = [], parentKey?: string): void {
  if (path.length > MAX_DEPTH) return;
  if (Array.isArray(value)) value.forEach((v, i) => forEachEntry(v, visit, [...path, i]));
  else if (isObj(value)) {
    for (const [key, v] of Object.entries(value)) {
      visit({ key, value: v, parent: value, parentKey, path: [...path, key] });
      forEachEntry(v, visit, [...path, key], key);
    }
  }
}
