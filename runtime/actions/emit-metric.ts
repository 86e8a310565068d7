// `emit_metric`: records a counter increment, a gauge value or a histogram observation with labels.
// Names and label names are checked at load (`check`); values here. Data: what was recorded.
import type { ActionKind } from './types.ts';

const TYPES = new Set(['counter', 'gauge', 'histogram']);
const fail = (error: string) => ({ ok: false, error: `emit_metric: ${error}`, failure: { kind: 'other' as const } });

export const emitMetric: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as { name?: unknown; type?: unknown; value?: unknown; labels?: unknown; help?: unknown };
  const type = (c.type ?? 'gauge') as string;
  if (typeof c.name !== 'string' || !TYPES.has(type)) return fail('"name" and a type of counter, gauge or histogram are required');
  const raw = c.value ?? (type === 'counter' ? 1 : undefined);
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`the value of "${c.name}" must be a number, not ${JSON.stringify(raw)}`);
  if (type === 'counter' && value < 0) return fail(`a counter only goes up: ${value} cannot be added to "${c.name}"`);
  const labels = Object.fromEntries(Object.entries((c.labels ?? {}) as Record<string, unknown>).map(([k, v]) => [k, v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)]));
  const metrics = ctx.services.metrics;
  if (!metrics) return fail('metrics are not exposed (set expose_metrics: true and serve the config)');
  const problem = metrics.emit({ name: c.name, type: type as 'gauge', value, labels, ...(typeof c.help === 'string' ? { help: c.help } : {}) });
  if (problem) return fail(problem);
  return { ok: true, data: { name: c.name, type, value, labels } };
};
