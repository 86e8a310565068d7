// Which interfaces' behaviour a config change touches. The generated module is a deterministic function
// of the lowered IR, so an interface whose IR (less its line numbers) differs is one whose generated
// code differs; the summary names the actions that changed so a reviewer knows where to look.
import type { ConfigIR } from '../../runtime/config-ir.ts';

export interface BehaviourChange {
  interface: string;
  change: 'added' | 'removed' | 'changed';
  /** For `changed`: `action X changed`, `action Y added`, `interface settings changed`, ... */
  details: string[];
}

export function diffBehaviour(oldIr: ConfigIR, newIr: ConfigIR): BehaviourChange[] {
  const out: BehaviourChange[] = [];
  const olds = new Map(oldIr.interfaces.map((i) => [i.name, i]));
  const news = new Map(newIr.interfaces.map((i) => [i.name, i]));
  for (const name of olds.keys()) if (!news.has(name)) out.push({ interface: name, change: 'removed', details: [] });
  for (const [name, ni] of news) {
    const oi = olds.get(name);
    if (!oi) { out.push({ interface: name, change: 'added', details: [] }); continue; }
    const details: string[] = [];
    const oa = new Map(oi.actions.map((a) => [a.name, a]));
    const na = new Map(ni.actions.map((a) => [a.name, a]));
    for (const a of oa.keys()) if (!na.has(a)) details.push(`action ${a} removed`);
    for (const [a, act] of na) {
      const prev = oa.get(a);
      if (!prev) details.push(`action ${a} added`);
      else if (canonical(prev) !== canonical(act)) details.push(`action ${a} changed`);
    }
    const order = (xs: { name: string }[]) => xs.map((x) => x.name).join('\u0000');
    if (details.length === 0 && order(oi.actions) !== order(ni.actions)) details.push('actions reordered');
    const { actions: _o, ...oRest } = oi;
    const { actions: _n, ...nRest } = ni;
    if (canonical(oRest) !== canonical(nRest)) details.push('interface settings changed (route, params, responses, triggers or documentation)');
    if (details.length) out.push({ interface: name, change: 'changed', details });
  }
  const configLevel = (ir: ConfigIR) => canonical({ onError: ir.onError, settings: ir.settings, exposeMetrics: ir.exposeMetrics, mcpServers: ir.mcpServers });
  if (configLevel(oldIr) !== configLevel(newIr)) out.push({ interface: '(config)', change: 'changed', details: ['config-level settings changed (on_error, settings, metrics, MCP servers)'] });
  return out;
}

/** JSON with `line` positions dropped and keys sorted, so moving text in the file is not a change. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (key, val: unknown) => {
    if (key === 'line') return undefined;
    if (val && typeof val === 'object' && !Array.isArray(val)) {
      return Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return val;
  }) ?? '';
}
