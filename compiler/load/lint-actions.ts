// Action-level lints: names, run conditions, retry classification, SQL batches, exit codes, metrics.
import { didYouMean } from '../source/suggest.ts';
import { COMPANIONS, KINDS, KIND_FIELDS, kindOf } from '../schema/action-kinds.ts';
import { scanMarkers } from '../markers/scan.ts';
import { forEachAction, identities, isObj, type ActionSite, type InterfaceSite } from './walk.ts';
import type { Report } from './report.ts';

const CONDITIONS = ['run_when_succeeded', 'run_when_failed', 'depends_on'] as const;

export function lintActions(iface: InterfaceSite, config: Record<string, unknown>, report: Report): void {
  shorthandBesideActions(iface, report);
  forEachAction(iface, (site) => {
    oneKind(site, report);
    lookupShape(site, report);
    duplicateName(site, report);
    runConditions(site, report);
    retryOnNonHttp(site, report);
    const a = site.action;
    if (a.multi === true && (Array.isArray(a.params) ? a.params.length > 0 : a.params !== undefined)) {
      report('error', [...site.path, 'multi'], `multi: true cannot be used with params in action "${site.name}"`, 'a multi-statement batch runs through the simple protocol, which takes no parameters');
    }
    kindFields(site, report);
    if (typeof a.expect_exit === 'string' && a.expect_exit !== 'any' && !a.expect_exit.includes('a|')) {
      const hint = /^\d+$/.test(a.expect_exit.trim()) ? `write it as a number: expect_exit: ${a.expect_exit.trim()}` : 'use any, an exit code, or a list of exit codes';
      report('warning', [...site.path, 'expect_exit'], `expect_exit "${a.expect_exit}" in action "${site.name}" never matches`, hint, 'value');
    }
    if (a.emit_metric !== undefined && config.expose_metrics !== true) {
      report('error', [...site.path, 'emit_metric'], `emit_metric in action "${site.name}" requires expose_metrics: true on the config`, 'add expose_metrics: true at the top level');
    }
  });
}

/** A field only other kinds read would do nothing here (`input` beside `url` was never sent,
 *  `lookup_concurrency` without `lookup` limited nothing): refused at the field. */
function kindFields(site: ActionSite, report: Report): void {
  const a = site.action;
  const kind = kindOf(a);
  for (const { field, kinds, what } of KIND_FIELDS) {
    if (a[field] === undefined || kinds.includes(kind)) continue;
    report('error', [...site.path, field], `${field} only applies to ${what} actions (action "${site.name}" is of kind ${kind})`, HINTS[what] ?? `remove it, or move it to an action of those kinds`);
  }
}

const HINTS: Record<string, string> = {
  command: 'remove it, or make the action a command: command: { run: ... }',
  lookup: 'remove it, or fan out with lookup: a|Items| and the nested actions: to run per item',
  'input, agent and only_new': "remove it: this kind does not read input; put the value in the kind's own fields (http.body, email.text, ws_publish.data, ...) or in an input action before it",
};

/** One kind per action: lowering runs the first kind field of a fixed list, so a second would be
 *  silently skipped (`delay` + `url` never waited, `command` + `url` never ran the command). */
function oneKind(site: ActionSite, report: Report): void {
  const a = site.action;
  const set = KINDS.filter(([field]) => a[field] !== undefined).map(([field]) => field);
  // `url` beside `http` is one http action; `database` names a query's or document operation's pool.
  const kinds = set.filter((f) => !(f === 'url' && set.includes('http')) && !COMPANIONS.some(([c, of]) => c === f && of.some((o) => set.includes(o))));
  if (kinds.length < 2) return;
  const [first, ...rest] = kinds;
  for (const field of rest) {
    report('error', [...site.path, field], `action "${site.name}" sets two kinds, ${first} and ${field}: an action runs one kind`, `split it into two actions (${first} in one, ${field} in the next), in the order they should run`);
  }
}

/** `lookup` fans out over an array marker and runs its nested actions per item (spec: "Name of a
 *  lookup configuration, or an array marker"; no place to declare named lookup configurations is
 *  given, so a plain name is refused: it would fan out over its own letters' string). */
function lookupShape(site: ActionSite, report: Report): void {
  const { action: a } = site;
  if (a.lookup === undefined) return;
  if (typeof a.lookup === 'string') {
    const [m] = scanMarkers(a.lookup);
    const whole = m && m.start === 0 && (!m.closed || m.body.length + 3 === a.lookup.length);
    if (!whole) {
      const name = a.lookup.trim();
      const hint = site.earlier.includes(name) ? `to fan out over the data of action "${name}", write lookup: a|${name}|` : 'write an array marker, such as lookup: a|Members| or lookup: a|body::items|';
      report('error', [...site.path, 'lookup'], `lookup of action "${site.name}" must be an array marker, not ${JSON.stringify(a.lookup)}`, hint, 'value');
    } else if (!m.closed) {
      report('error', [...site.path, 'lookup'], `lookup of action "${site.name}" has an unclosed marker "a|${m.body}"`, `close it as a|${m.body.trim()}| (only input takes the bare form)`, 'value');
    }
  }
  if (!Array.isArray(a.actions) || a.actions.length === 0) {
    report('error', [...site.path, 'lookup'], `lookup of action "${site.name}" has no actions to run per item`, 'add actions: [...] under it (a|body| is the current item), or read the array itself with input:');
  }
}

/** The interface's `url`/`query` shorthand is a one-action interface: beside `actions` it would be ignored. */
function shorthandBesideActions(iface: InterfaceSite, report: Report): void {
  const i = iface.iface;
  if (i.actions !== undefined) {
    for (const field of ['url', 'query', 'conn_string'] as const) {
      if (i[field] === undefined) continue;
      report('error', [...iface.path, field], `interface "${iface.name}" sets both ${field} and actions: the ${field === 'conn_string' ? 'query' : field} shorthand is a one-action interface`, `make it an action of the list (- name: Fetch, ${field}: ...), or remove actions`);
    }
    return;
  }
  // The shorthand runs one kind: url wins over query, and conn_string only completes a query.
  if (i.url !== undefined && i.query !== undefined) report('error', [...iface.path, 'query'], `interface "${iface.name}" sets both url and query: the shorthand is one action of one kind`, 'keep one, or write actions: with one action for each');
  else if (i.conn_string !== undefined && i.query === undefined) report('error', [...iface.path, 'conn_string'], `conn_string of interface "${iface.name}" only applies to the query shorthand`, 'add query: with the SQL to run, or remove conn_string');
}

/** A name used earlier in the same list, or anywhere in an enclosing list, makes references ambiguous. */
function duplicateName(site: ActionSite, report: Report): void {
  const name = identities(site.action)[0];
  if (name === undefined || !(site.earlier.includes(name) || site.outer.includes(name))) return;
  const key = typeof site.action.name === 'string' ? 'name' : 'action';
  report('error', [...site.path, key], `duplicate action name "${name}" in interface "${site.iface.name}"`, `a reference such as a|${name}| would be ambiguous; give each action its own name`, 'value');
}

function runConditions(site: ActionSite, report: Report): void {
  for (const field of CONDITIONS) {
    const cond = site.action[field];
    const list = Array.isArray(cond) ? cond : isObj(cond) && Array.isArray(cond.actions) ? cond.actions : [];
    const base = Array.isArray(cond) ? [...site.path, field] : [...site.path, field, 'actions'];
    list.forEach((ref, i) => {
      if (typeof ref !== 'string' || site.earlier.includes(ref)) return;
      const at = [...base, i];
      const msg = `${field} of action "${site.name}" names`;
      if (identities(site.action).includes(ref)) report('error', at, `${msg} the action itself`, undefined, 'value');
      else if (site.iface.allNames.has(ref)) report('error', at, `${msg} "${ref}", which does not run before it`, 'a condition can only name actions that run earlier in the interface', 'value');
      else report('error', at, `${msg} unknown action "${ref}"`, didYouMean(ref, site.earlier), 'value');
    });
  }
}

function retryOnNonHttp(site: ActionSite, report: Report): void {
  const { action: a } = site;
  if (!isObj(a.retry) || a.http !== undefined || a.url !== undefined) return;
  for (const key of ['on', 'except'] as const) {
    if (a.retry[key] === undefined) continue;
    report(
      'warning',
      [...site.path, 'retry', key],
      `retry.${key} has no effect on action "${site.name}", which makes no HTTP call`,
      'for non-HTTP actions every failure is retried; status matchers only apply to HTTP actions',
    );
  }
}

