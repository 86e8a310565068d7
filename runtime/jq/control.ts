// label/break for compiled jq: `break $name` throws the label's own token, which only its label catches
// (jq errors and other labels' breaks pass through).
import { fallback } from './errors.ts';
import { tick } from './bounds.ts';

/** A fresh token for one entry into `label $name | ...`. */
export const label = (): object => ({});

/** In the label's catch: rethrows anything that is not this label's break. */
export function mustBreak(e: unknown, token: object): void {
  if (e !== token) throw e;
}

// Recursive defs (recurse, walk, _flatten, user defs) run as nested JS calls: past this depth the call
// goes to the engine (which answers to jq's own limits) before the JS stack runs out mid-helper.
const MAX_DEPTH = 1500;
let depth = 0;

export function enter(): void {
  tick(); // a recursion (repeat, while, until, recurse) is a loop: it ends at the time bound
  if (++depth > MAX_DEPTH) {
    depth = 0; // the whole call is abandoned and rerun by the engine
    fallback();
  }
}

export function leave(): void {
  if (depth > 0) depth--;
}
