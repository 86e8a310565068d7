// The configured values a config reads without a fallback (`a|secret::X|`, `a|var::X|`, `a|env::X|`
// and the ap_ forms, no `->default()`): carried in the IR so that a server refuses to start without
// them instead of sending an empty string (runtime/server/needs.ts). A need names the interface and
// action that read it, not a line: lines live in the generated module's position table only.
import type { NeedIR, InterfaceIR } from '../../runtime/config-ir.ts';

const CONFIGURED = new Set(['secret', 'ap_secret', 'var', 'ap_var', 'env']);

export function configNeeds(interfaces: InterfaceIR[]): NeedIR[] {
  const out = new Map<string, NeedIR>();
  const walk = (v: unknown, at: { iface: string; action?: string }): void => {
    if (Array.isArray(v)) { for (const x of v) walk(x, at); return; }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    // A Ref (runtime/ir.ts): a root, a source text, and no default.
    if (typeof o.root === 'string' && typeof o.src === 'string' && CONFIGURED.has(o.root) && typeof o.name === 'string' && !('default' in o)) {
      const key = `${o.root}:${o.name}`;
      if (!out.has(key)) out.set(key, { root: o.root as NeedIR['root'], name: o.name, ...at });
      return;
    }
    // An action record (ActionIR: a name and a kind) names where its markers are.
    const here = typeof o.name === 'string' && typeof o.kind === 'string' ? { iface: at.iface, action: o.name } : at;
    for (const x of Object.values(o)) walk(x, here);
  };
  for (const i of interfaces) walk(i, { iface: i.name });
  return [...out.values()];
}
