// Checks the schema cannot express: cross-references, markers, and combinations the spec rules out.
import type { Diagnostic } from './diagnostics.ts';
import { lintActions } from './lint-actions.ts';
import { lintCode } from './lint-code.ts';
import { lintMarkers } from './lint-markers.ts';
import { lintRefs } from './lint-refs.ts';
import { interfaces, isObj } from './walk.ts';
import type { ConfigPath, Locate } from './yaml.ts';

export type Report = (severity: Diagnostic['severity'], path: ConfigPath, message: string, hint?: string, at?: 'key' | 'value') => void;

/** Lints a parsed config. Tolerates configs that failed schema validation (it only reads what it understands). */
export function lintConfig(config: unknown, locate: Locate, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report: Report = (severity, path, message, hint, at = 'key') => {
    const d: Diagnostic = { file, ...locate(path, at), severity, message, path };
    if (hint) d.hint = hint;
    out.push(d);
  };
  if (!isObj(config)) return out;
  const ifaces = interfaces(config);
  for (const iface of ifaces) lintActions(iface, config, report);
  lintRefs(config, ifaces, report);
  lintMarkers(config, ifaces, report);
  lintCode(config, report);
  return out;
}

