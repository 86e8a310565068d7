// Marker lints: unclosed markers (sent literally at run time) and markers naming nothing known.
import { BARE_ROOTS, NAMED_ROOTS } from '../markers/parse.ts';
import { closedForm, gluedMarkers, MARKER_ROOTS, markerRoot, scanMarkers } from '../markers/scan.ts';
import { didYouMean } from '../source/suggest.ts';
import { forEachAction, forEachString, isObj, type InterfaceSite } from './walk.ts';
import type { ConfigPath } from '../source/yaml.ts';
import type { Report } from './report.ts';
import { specOf } from '../../runtime/transforms/specs.ts';

// Fields holding jq, regex or JSON path text: pipes there are not markers.
const CODE_FIELDS = new Set(['jq', 'extract_with_jq', 'lookup_inherit_jq', 'json_output', 'regex', 'expr', 'json_path', 'extract_with_json_path']);
// Only the action input fields accept the bare (unclosed) form.
const INPUT_FIELDS = new Set(['input', 'input_fallbacks', 'conditional_input']);

/** A transform step's field the transform reads as text, a path or code, never interpolated
 *  (runtime/transforms/specs.ts: `replace_values.find_str`, `flatten.prefix`…): a marker there is its text. */
const TEXT_KINDS = new Set(['literal', 'jq', 'jsonpath', 'places', 'path', 'calcs']);
function uninterpolated(rel: ConfigPath): boolean {
  for (let k = 1; k + 1 < rel.length; k++) {
    if (typeof rel[k - 1] !== 'number' || typeof rel[k] !== 'string') continue;
    const kind = specOf(rel[k] as string)?.fields?.[String(rel[k + 1])];
    if (kind && TEXT_KINDS.has(kind)) return true;
  }
  return false;
}

interface Scope {
  /** Where the string is, in words. */
  where: string;
  /** Action names a marker may read here. */
  known: string[];
  /** Action names that exist but are not readable here (they run later). */
  later: Set<string>;
}

export function lintMarkers(config: unknown, ifaces: InterfaceSite[], report: Report): void {
  const check = (scope: Scope, base: ConfigPath, value: unknown, skipFirst?: string) =>
    forEachString(value, base, (s, path) => checkString(s, path, path.slice(base.length), scope, report), (path) => {
      const rel = path.slice(base.length);
      return rel[0] === skipFirst || rel.some((seg) => CODE_FIELDS.has(String(seg))) || (rel.at(-1) === 'id' && rel.at(-2) === 'only_new') || uninterpolated(rel);
    });

  if (isObj(config)) for (const [k, v] of Object.entries(config)) if (k !== 'interfaces') check({ where: 'the config', known: [], later: new Set() }, [k], v);
  for (const iface of ifaces) {
    const all = [...iface.allNames];
    check({ where: `interface "${iface.name}"`, known: all, later: new Set() }, iface.path, iface.iface, 'actions');
    forEachAction(iface, (site) => {
      // An action may read its own output in fields evaluated after it ran (assert, responses).
      const known = [...site.earlier, ...[site.action.name, site.action.action].filter((n): n is string => typeof n === 'string')];
      check({ where: `action "${site.name}"`, known, later: iface.allNames }, site.path, site.action, 'actions');
    });
  }
}

function checkString(s: string, path: ConfigPath, rel: ConfigPath, scope: Scope, report: Report): void {
  const isInput = INPUT_FIELDS.has(String(rel[0])) && scope.where.startsWith('action');
  for (const m of scanMarkers(s)) {
    // The bare form is read only when the whole input is the marker.
    // lookup's own lint refuses an unclosed marker there (lint-actions.ts).
    if (!m.closed && rel.length === 1 && rel[0] === 'lookup' && scope.where.startsWith('action')) continue;
    if (!m.closed && !(isInput && m.start === 0)) {
      const shown = `a|${m.body}`;
      report('warning', path, `unclosed marker "${shown.length > 40 ? shown.slice(0, 37) + '...' : shown}" in ${scope.where} is sent literally at run time`, `close it as ${closedForm(m.body)}`, 'value');
      continue;
    }
    const { root, named, valid } = markerRoot(m.body);
    const src = `a|${m.body}${m.closed ? '|' : ''}`;
    if (!valid) {
      report('warning', path, `${JSON.stringify(src)} in ${scope.where} is not a valid reference and is sent literally`, 'a reference is a|<root>[::<name>][-><path>]|, such as a|body|, a|params::id| or a|Fetch::status|', 'value');
      continue;
    }
    if (!root || scope.known.includes(root) || (named ? NAMED_ROOTS : BARE_ROOTS).includes(root)) continue;
    const msg = `marker ${src} in ${scope.where} reads "${root}"`;
    const dot = root.indexOf('.');
    if (!named && NAMED_ROOTS.includes(root)) {
      report('warning', path, `marker ${src} in ${scope.where} needs a name`, `write a|${root}::<NAME>|`, 'value');
    } else if (dot > 0 && (MARKER_ROOTS.includes(root.slice(0, dot)) || scope.known.includes(root.slice(0, dot)))) {
      report('warning', path, `${msg}, an action name: a field is read with ::`, `did you mean a|${root.slice(0, dot)}::${root.slice(dot + 1)}|?`, 'value');
    } else if (scope.later.has(root)) {
      report('warning', path, `${msg}, which has not run yet at this point`, 'a marker can read only actions that run earlier', 'value');
    } else {
      // An error, not a warning: the run would read nothing (or send the text) where the author meant data.
      report('error', path, `${msg}, which is neither a known root nor an earlier action`, didYouMean(root, [...MARKER_ROOTS, ...scope.known]) ?? `roots: ${MARKER_ROOTS.join(', ')}; earlier actions: ${scope.known.join(', ') || 'none'}`, 'value');
    }
  }
  for (const g of gluedMarkers(s)) {
    const { root } = markerRoot(g.body);
    if (!scope.known.includes(root) && !MARKER_ROOTS.includes(root)) continue;
    const before = s.slice(Math.max(0, g.start - 12), g.start);
    report('warning', path, `a|${g.body}| in ${scope.where} follows "${before}" with no separator, so it is not a marker and is sent literally`, `a marker must start the text or follow a character other than a letter, digit or _ (such as - / . : or a space); to join a value to a word, build the text with extract_with_jq`, 'value');
  }
}

/** `is_valid_hmac` over `a|body|` checks the signature against the body as re-serialised JSON, not
 *  the bytes the sender signed: it fails for most senders (key order, spacing, escapes). */
export function lintHmacSubjects(config: unknown, report: Report): void {
  const walk = (v: unknown, path: ConfigPath): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, [...path, i]));
    if (!isObj(v)) return;
    const data = isObj(v.is_valid_hmac) ? v.is_valid_hmac.data : undefined;
    if (typeof data === 'string') {
      const m = scanMarkers(data)[0];
      if (m?.closed && m.start === 0 && markerRoot(m.body).root === 'body') {
        report('warning', [...path, 'is_valid_hmac', 'data'], `is_valid_hmac checks the signature of ${data}, the body re-serialised as JSON, not the bytes the sender signed`, 'use data: a|raw_body| (the request body exactly as received)', 'value');
      }
    }
    for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(config, []);
}
