// emit_metric names and labels follow Prometheus's rules, and one metric keeps one type and one
// label set across the config (prom-client refuses anything else at run time).
import type { Report } from './report.ts';
import { forEachAction, isObj, type InterfaceSite } from './walk.ts';

const METRIC = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function lintMetrics(ifaces: InterfaceSite[], report: Report): void {
  const seen = new Map<string, { type: string; labels: string; where: string }>();
  for (const site of ifaces) {
    forEachAction(site, (a) => {
      const m = a.action.emit_metric;
      if (!isObj(m) || typeof m.name !== 'string') return;
      const at = [...a.path, 'emit_metric'];
      if (!METRIC.test(m.name)) return report('error', [...at, 'name'], `metric name "${m.name}" is not a Prometheus name`, 'use letters, digits, _ and :, not starting with a digit', 'value');
      if (m.name.startsWith('pipewright_')) return report('error', [...at, 'name'], `metric name "${m.name}" uses the reserved prefix pipewright_`, 'choose another prefix', 'value');
      const labels = isObj(m.labels) ? Object.keys(m.labels) : [];
      for (const l of labels) {
        if (!LABEL.test(l) || l.startsWith('__')) report('error', [...at, 'labels', l], `label name "${l}" of metric "${m.name}" is not a Prometheus label name`, 'use letters, digits and _, not starting with a digit or __');
      }
      const type = typeof m.type === 'string' ? m.type : 'gauge';
      if (type === 'counter' && !m.name.endsWith('_total')) report('warning', [...at, 'name'], `counter "${m.name}" does not end in _total`, `Prometheus convention: name it ${m.name}_total`, 'value');
      const key = { type, labels: [...labels].sort().join(', '), where: a.name };
      const before = seen.get(m.name);
      if (!before) { seen.set(m.name, key); return; }
      if (before.type !== type) report('error', [...at, 'type'], `metric "${m.name}" is a ${before.type} in action "${before.where}" and a ${type} here`, 'one metric name has one type');
      else if (before.labels !== key.labels) report('error', [...at, 'labels'], `metric "${m.name}" has labels [${before.labels}] in action "${before.where}" and [${key.labels}] here`, 'one metric name has one label set');
    });
  }
}
