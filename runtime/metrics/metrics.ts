// Prometheus metrics of one service (prom-client, its own registry): built-in run counts, durations
// and action failures per interface, and the metrics configs emit with `emit_metric`. Label values
// come from requests, so each metric's series are capped: past the cap a new series is dropped
// (and counted in pipewright_metric_series_dropped_total) instead of growing memory without bound.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RunResult } from '../exec/run.ts';

export const DEFAULT_MAX_SERIES = 1000;
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface Emit { name: string; type: MetricType; value: number; labels: Record<string, string>; help?: string }

type Custom = { type: MetricType; labelNames: string[]; metric: Counter | Gauge | Histogram; series: Set<string> };

export class Metrics {
  readonly registry = new Registry();
  private readonly runs: Counter;
  private readonly duration: Histogram;
  private readonly actionFailures: Counter;
  private readonly dropped: Counter;
  private readonly custom = new Map<string, Custom>();

  constructor(private readonly maxSeries = DEFAULT_MAX_SERIES) {
    const registers = [this.registry];
    this.runs = new Counter({ name: 'pipewright_runs_total', help: 'Runs finished or suspended, by interface and outcome.', labelNames: ['config', 'interface', 'outcome'], registers });
    this.duration = new Histogram({ name: 'pipewright_run_duration_seconds', help: 'Time from a run\'s start to its answer, by interface.', labelNames: ['config', 'interface'], registers });
    this.actionFailures = new Counter({ name: 'pipewright_action_failures_total', help: 'Failed actions, by interface and action (hide_metrics leaves an action out).', labelNames: ['config', 'interface', 'action'], registers });
    this.dropped = new Counter({ name: 'pipewright_metric_series_dropped_total', help: 'emit_metric series dropped because the metric reached its series cap.', labelNames: ['metric'], registers });
  }

  observeRun(plan: Plan, iface: InterfacePlan, r: RunResult, now = Date.now()): void {
    const outcome = r.state.status === 'suspended' ? 'suspended' : r.failure === undefined && r.response.status < 400 ? 'succeeded' : 'failed';
    this.runs.inc({ config: plan.name, interface: iface.name, outcome });
    const started = Date.parse(r.state.startedAt);
    if (Number.isFinite(started)) this.duration.observe({ config: plan.name, interface: iface.name }, Math.max(0, now - started) / 1000);
    const hidden = new Set(iface.actions.filter((a) => a.hide?.metrics).map((a) => a.name));
    for (const [action, step] of Object.entries(r.state.steps)) {
      if (step.outcome === 'failed' && !hidden.has(action)) this.actionFailures.inc({ config: plan.name, interface: iface.name, action });
    }
  }

  /** Records an emitted value; returns an error text when the metric is used inconsistently. */
  emit(e: Emit): string | undefined {
    const labelNames = Object.keys(e.labels).sort();
    let m = this.custom.get(e.name);
    if (!m) {
      const registers = [this.registry];
      const help = e.help ?? `Emitted by emit_metric (${e.type}).`;
      const metric = e.type === 'counter' ? new Counter({ name: e.name, help, labelNames, registers })
        : e.type === 'gauge' ? new Gauge({ name: e.name, help, labelNames, registers })
        : new Histogram({ name: e.name, help, labelNames, registers });
      this.custom.set(e.name, (m = { type: e.type, labelNames, metric, series: new Set() }));
    }
    if (m.type !== e.type) return `metric "${e.name}" is a ${m.type}, not a ${e.type}`;
    if (m.labelNames.join() !== labelNames.join()) return `metric "${e.name}" has labels [${m.labelNames.join(', ')}], not [${labelNames.join(', ')}]`;
    const key = JSON.stringify(labelNames.map((k) => e.labels[k]));
    if (!m.series.has(key)) {
      if (m.series.size >= this.maxSeries) { this.dropped.inc({ metric: e.name }); return undefined; }
      m.series.add(key);
    }
    if (m.metric instanceof Counter) m.metric.inc(e.labels, e.value);
    else if (m.metric instanceof Gauge) m.metric.set(e.labels, e.value);
    else m.metric.observe(e.labels, e.value);
    return undefined;
  }

  text(): Promise<string> { return this.registry.metrics(); }
  get contentType(): string { return this.registry.contentType; }
}
