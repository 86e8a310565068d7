// Checks the schema cannot express: cross-references, markers, and combinations the spec rules out.
import type { Diagnostic } from '../source/diagnostics.ts';
import { lintActions } from './lint-actions.ts';
import { lintAssertGates } from './lint-assert-gates.ts';
import { lintCode } from './lint-code.ts';
import { lintHmacSubjects, lintMarkers } from './lint-markers.ts';
import { lintRefs } from './lint-refs.ts';
import { lintUnbuilt } from './lint-unbuilt.ts';
import { lintSecrets } from './lint-secrets.ts';
import { lintBounds } from './lint-bounds.ts';
import { lintRegexes } from './lint-regex.ts';
import { lintAcceptsSchemas } from './lint-accepts.ts';
import { lintRoutes } from './lint-routes.ts';
import { lintSchedules } from './lint-schedule.ts';
import { lintTokens } from './lint-tokens.ts';
import { lintMetrics } from './lint-metrics.ts';
import { lintRequestValues } from './lint-request-values.ts';
import { interfaces, isObj } from './walk.ts';
import type { Locate } from '../source/yaml.ts';
import type { Report } from './report.ts';

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
  for (const iface of ifaces) lintAssertGates(iface, report);
  lintRefs(config, ifaces, report);
  lintMarkers(config, ifaces, report);
  lintHmacSubjects(config, report);
  lintRequestValues(config, ifaces, report);
  lintUnbuilt(config, ifaces, report);
  lintSecrets(config, [], report);
  lintBounds(config, report);
  lintRegexes(config, report);
  lintAcceptsSchemas(ifaces, report);
  lintRoutes(config, report);
  lintSchedules(config, report);
  lintTokens(ifaces, report);
  lintMetrics(ifaces, report);
  lintCode(config, report);
  return out;
}

