// Spec: an assert "never decides whether an action failed", so the actions after a failed assert
// run (a forged webhook signature answered 401 while the row was written and the chat notified).
// `check` keeps that rule and shows the trap: an action with a side effect (side-effects.ts) that can
// run after an action's assert failed, with no gate between them, is a warning at that action with
// the gate to add. A gate is run_on_assertion on the action, or a run condition that needs an
// outcome of a gated action (a skipped action neither succeeds, fails nor completes); a
// run_when_failed naming the asserting action is gated too (its assert ran only if it succeeded).
import { identities, isObj, type InterfaceSite, type Obj } from './walk.ts';
import { sideEffect } from './side-effects.ts';
import type { ConfigPath } from '../source/yaml.ts';
import type { Report } from './report.ts';

interface Open { name: string; action: Obj }

export function lintAssertGates(iface: InterfaceSite, report: Report): void {
  walk(iface.iface.actions, [...iface.path, 'actions'], undefined, report);
}

/** One list of actions; `outer` is an assert before the enclosing lookup that its run did not gate. */
function walk(list: unknown, path: ConfigPath, outer: Open | undefined, report: Report): void {
  if (!Array.isArray(list)) return;
  const actions = list.map((a) => (isObj(a) ? a : {}));
  const index = new Map<string, number>();
  actions.forEach((a, i) => identities(a).forEach((n) => index.set(n, i)));
  const asserts = actions.flatMap((a, i) => (mayFail(a.assert) ? [i] : []));
  const gated = gates(actions, index);
  actions.forEach((a, j) => {
    const i = asserts.filter((k) => k < j && !gated(j, k)).pop();
    const open = i !== undefined ? { name: identities(actions[i]!)[0] ?? `#${i + 1}`, action: actions[i]! } : outer && !gated(j, -1) ? outer : undefined;
    const effect = sideEffect(a);
    if (open && effect) {
      const name = identities(a)[0] ?? `#${j + 1}`;
      report('warning', [...path, j], `action "${name}" (${effect}) runs even when the assert of "${open.name}" fails: an assert never stops later actions`,
        `gate it with run_on_assertion: ${gate(open)} (it is then skipped when they fail), and give the side effects after it run_when_succeeded: [${name}]`);
    }
    if (a.lookup !== undefined) walk(a.actions, [...path, j, 'actions'], open, report);
  });
}

/** An assert with at least one test can fail. */
const mayFail = (v: unknown): boolean => isObj(v) && Array.isArray(v.tests) && v.tests.length > 0;

/** gated(j, i): action j cannot run unless something after action i (i = -1: the list's start) held. */
function gates(actions: Obj[], index: Map<string, number>): (j: number, i: number) => boolean {
  const memo = new Map<string, boolean>();
  const gated = (j: number, i: number): boolean => {
    const key = `${j}:${i}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    memo.set(key, false); // a cycle (refused elsewhere) gates nothing
    const a = actions[j]!;
    const result = a.run_on_assertion !== undefined || (['run_when_succeeded', 'depends_on', 'run_when_failed'] as const).some((field) => {
      const { names, atLeast } = condition(a[field]);
      const blocked = names.filter((n) => {
        const k = index.get(n);
        return k !== undefined && k < j && ((k > i && gated(k, i)) || (field === 'run_when_failed' && k === i));
      }).length;
      return names.length > 0 && names.length - blocked < atLeast;
    });
    memo.set(key, result);
    return result;
  };
  return gated;
}

function condition(v: unknown): { names: string[]; atLeast: number } {
  const list = Array.isArray(v) ? v : isObj(v) && Array.isArray(v.actions) ? v.actions : [];
  const names = list.filter((n): n is string => typeof n === 'string');
  const atLeast = isObj(v) && typeof v.at_least === 'number' ? v.at_least : names.length;
  return { names, atLeast };
}

/** The assert's tests as a run_on_assertion reads them: a test of the action's own data reads it
 *  through a marker (run_on_assertion has no data of its own); a jq subject has no marker form. */
function gate(open: Open): string {
  const tests = (open.action.assert as { tests: unknown[] }).tests;
  if (tests.some((t) => isObj(t) && t.value === undefined && t.jq !== undefined)) return `{ tests: [...] } with the tests of "${open.name}"'s assert, each reading its subject through value:`;
  return flow({
    tests: tests.map((t) => {
      if (!isObj(t) || t.value !== undefined) return t;
      const { json_path, ...checks } = t;
      const at = typeof json_path === 'string' ? json_path.replace(/^\$\.?/, '').replace(/\[(\d+)\]/g, '.$1') : '';
      return { value: at ? `a|${open.name}->${at}|` : `a|${open.name}|`, ...checks };
    }),
  });
}

/** A value as one line of YAML flow style (keys bare where YAML allows, strings quoted). */
function flow(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(flow).join(', ')}]`;
  if (isObj(v)) return `{ ${Object.entries(v).map(([k, x]) => `${/^[A-Za-z_][\w-]*$/.test(k) ? k : JSON.stringify(k)}: ${flow(x)}`).join(', ')} }`;
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}
