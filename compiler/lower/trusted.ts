// Text that decides what runs or where (SQL text, a command's program and working directory) holds
// configuration values only: literal text and var/ap_var/env markers, never request or action data.
import type { Part } from '../markers/parse.ts';
import { LowerError, type Path } from './error.ts';

const TRUSTED_ROOTS = new Set(['var', 'ap_var', 'env']);

/** Refuses, at `at`, the first marker that is not a configuration value: "<marker> <cannot>". */
export function onlyTrustedMarkers(parts: Part[], at: Path, cannot: string, hint: string | ((src: string) => string)): void {
  for (const p of parts) {
    if (typeof p !== 'string' && !TRUSTED_ROOTS.has(p.root)) throw new LowerError(`${p.src} ${cannot}`, at, typeof hint === 'string' ? hint : hint(p.src));
  }
}
