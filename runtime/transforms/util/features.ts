// The config-wide gate of the heavy transforms (`features:` in the config, lowered into
// plan.settings.features, every entry true unless turned off). Transforms cannot see the plan, so
// the gate is applied before anything runs: lowering refuses a config that turns a feature off and
// still uses the transform (gateMessage), so neither path ever runs it; gateViolations walks a
// compiled config against other features, e.g. a hosted organization's entitlements at load time.
import type { ActionIR, ConfigIR } from '../../config-ir.ts';
import type { TransformIR } from '../../ir.ts';

export const GATED = ['compress', 'decompress', 'parse_xlsx', 'parse_pdf'] as const;

/** The refusal for a transform the features turn off, or undefined when it may run. */
export function gateMessage(op: string, features: Record<string, boolean> | undefined): string | undefined {
  if (!(GATED as readonly string[]).includes(op) || features?.[op] !== false) return undefined;
  return `${op} is turned off for this config (features.${op}: false)`;
}

export interface GateViolation { op: string; line: number; message: string }

/** Every use of a turned-off transform in the config, nested chains and lookup actions included. */
export function gateViolations(ir: ConfigIR, features: Record<string, boolean> = ir.settings.features): GateViolation[] {
  const out: GateViolation[] = [];
  const steps = (list: TransformIR[] | undefined) => {
    for (const t of list ?? []) {
      const message = gateMessage(t.op, features);
      if (message) out.push({ op: t.op, line: t.line, message });
      chains(t.args);
    }
  };
  const chains = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(chains);
    if (n === null || typeof n !== 'object') return;
    if ((n as { k?: string }).k === 'chain') return steps((n as { steps: TransformIR[] }).steps);
    Object.values(n).forEach(chains);
  };
  const actions = (list: ActionIR[] | undefined) => list?.forEach((a) => { steps(a.post); actions(a.actions); });
  for (const i of ir.interfaces) actions(i.actions);
  return out;
}
